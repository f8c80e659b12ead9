package io.partita.lease;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ClassId;
import io.partita.node.Identified;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lease group's whole state and its transitions: join, renew, leave and expire. Each transition is a plain,
 * deterministic function of the state and the arguments (the caller passes its clock in {@code now}), so that an entry
 * processor can run it on the group's partition thread and its backup can replay it with the same result.
 * <b>Threads:</b> none here; an instance is confined to the one thread that runs the transition (the partition thread
 * of the group's key, on the owner or a backup), since every entry processor works on its own copy.
 *
 * <p>Assignment is sticky and balanced: owned counts (counting a shard in hand-over as its receiver's) differ by at
 * most 1. When a worker joins, only the shards above their owners' quota move. A moved shard is first revoked: it
 * stays with its old owner, marked for the receiver, until the old owner renews (its answer no longer lists the
 * shard), leaves or expires; only then is it granted to the receiver. So no two live workers hold one shard with a
 * current token. Every grant raises the shard's fencing token by 1.
 *
 * <p>Stored as the value of the {@code lease-groups} map (one entry per group, BINARY format: every entry processor
 * works on its own copy), serialized as IdentifiedDataSerializable.
 */
@ClassId(100)
public final class LeaseGroup implements Identified {

    /** The most shards a group can have. */
    static final int MAX_SHARDS = 10_000;

    /** A worker as the group knows it: when its lease ends, and the join request that created it. */
    record Worker(String id, String requestId, long expiresAt) {
    }

    /** A shard a worker holds and the fencing token of its grant. */
    record Grant(int shard, long token) {
    }

    /** What a transition changed: shards granted, shards revoked for a move, workers expired. */
    record Changes(int grants, int moves, int expiries) {
    }

    private int shards;
    private long leaseMillis;
    private String[] owner;
    private String[] pendingTo;
    private long[] token;
    private final Map<String, Worker> workers = new TreeMap<>();
    private long workerSeq;
    /** Since the group was created (kept with the group, for its view): shards granted, moved and expired. */
    private long totalGrants;
    private long totalMoves;
    private long totalExpiries;
    private int grants;
    private int moves;
    private int expiries;

    /** For deserialization. */
    public LeaseGroup() {
    }

    LeaseGroup(int shards, long leaseMillis) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be 1..10000");
        }
        this.shards = shards;
        this.leaseMillis = leaseMillis;
        this.owner = new String[shards];
        this.pendingTo = new String[shards];
        this.token = new long[shards];
    }

    int shards() {
        return shards;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    /** The worker {@code shard} moves to once its holder lets it go, or null. */
    String pendingTo(int shard) {
        return pendingTo[shard];
    }

    /** The shards {@code workerId} holds now, with their tokens, not counting those it is handing over. */
    List<Grant> held(String workerId) {
        List<Grant> held = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            if (workerId.equals(owner[s]) && pendingTo[s] == null) {
                held.add(new Grant(s, token[s]));
            }
        }
        return held;
    }

    Map<String, Worker> workers() {
        return Map.copyOf(workers);
    }

    /** The current holder of {@code shard}: the old owner while a hand-over waits for its renewal. */
    String holder(int shard) {
        return owner[shard];
    }

    /** The worker {@code shard} is assigned to once any hand-over completes. */
    String assignee(int shard) {
        return pendingTo[shard] != null ? pendingTo[shard] : owner[shard];
    }

    long token(int shard) {
        return token[shard];
    }

    /** Whether {@code tokenToCheck} is the token of the shard's current, live grant. */
    boolean isCurrent(int shard, long tokenToCheck) {
        return owner[shard] != null && token[shard] == tokenToCheck;
    }

    /**
     * Adds a worker, or returns the one an earlier attempt of the same {@code requestId} added (a retried join does
     * not create a second worker). Expired workers are removed first.
     */
    Worker join(String requestId, long now) {
        expire(now);
        for (Worker w : workers.values()) {
            if (w.requestId().equals(requestId)) {
                return w;
            }
        }
        Worker worker = new Worker("w" + (++workerSeq), requestId, now + leaseMillis);
        workers.put(worker.id(), worker);
        rebalance();
        return worker;
    }

    /**
     * Extends the worker's lease and answers the shards it holds. Shards revoked from it are granted to their
     * receivers now: its answer no longer lists them. Returns null when the worker is unknown or its lease passed
     * (it must join again).
     */
    List<Grant> renew(String workerId, long now) {
        expire(now);
        Worker worker = workers.get(workerId);
        if (worker == null) {
            return null;
        }
        workers.put(workerId, new Worker(workerId, worker.requestId(), now + leaseMillis));
        List<Grant> held = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            if (!workerId.equals(owner[s])) {
                continue;
            }
            if (pendingTo[s] != null) {
                grant(s, pendingTo[s]);
            } else {
                held.add(new Grant(s, token[s]));
            }
        }
        return List.copyOf(held);
    }

    /** Removes a worker at once and hands its shards over; false when it was not there. */
    boolean leave(String workerId, long now) {
        expire(now);
        if (!workers.containsKey(workerId)) {
            return false;
        }
        remove(workerId);
        rebalance();
        return true;
    }

    /** Removes every worker whose lease ended at or before {@code now}; their shards go to the others. */
    int expire(long now) {
        List<String> gone = workers.values().stream().filter(w -> w.expiresAt() <= now).map(Worker::id).toList();
        gone.forEach(this::remove);
        expiries += gone.size();
        totalExpiries += gone.size();
        if (!gone.isEmpty()) {
            rebalance();
        }
        return gone.size();
    }

    /** What happened since the group was created, for its view. */
    Changes totals() {
        return new Changes(capped(totalGrants), capped(totalMoves), capped(totalExpiries));
    }

    private static int capped(long total) {
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    /** Shards waiting for their holder to let them go. */
    int handOvers() {
        int count = 0;
        for (String to : pendingTo) {
            count += to == null ? 0 : 1;
        }
        return count;
    }

    /** Counts since the last call, for metrics. */
    Changes drainChanges() {
        Changes changes = new Changes(grants, moves, expiries);
        grants = 0;
        moves = 0;
        expiries = 0;
        return changes;
    }

    private void remove(String workerId) {
        workers.remove(workerId);
        for (int s = 0; s < shards; s++) {
            if (workerId.equals(pendingTo[s])) {
                pendingTo[s] = null;
            }
            if (workerId.equals(owner[s])) {
                // A departed owner can no longer renew: the hand-over it owed completes now.
                if (pendingTo[s] != null) {
                    grant(s, pendingTo[s]);
                } else {
                    owner[s] = null;
                }
            }
        }
    }

    private void grant(int s, String to) {
        owner[s] = to;
        pendingTo[s] = null;
        token[s]++;
        grants++;
        totalGrants++;
    }

    /**
     * Quotas: every worker gets {@code shards / n}; the {@code shards % n} extra go to the workers already holding
     * most (ties by id), which is what keeps moves minimal. Shards above a worker's quota (highest first) and free
     * shards go to workers below quota in id order; a held shard is revoked, a free one granted at once.
     */
    private void rebalance() {
        if (workers.isEmpty()) {
            return;
        }
        Map<String, List<Integer>> assigned = new TreeMap<>();
        workers.keySet().forEach(id -> assigned.put(id, new ArrayList<>()));
        List<Integer> pool = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            String to = assignee(s);
            if (to == null) {
                pool.add(s);
            } else {
                assigned.get(to).add(s);
            }
        }
        int base = shards / workers.size();
        int extra = shards % workers.size();
        List<String> byCount = new ArrayList<>(assigned.keySet());
        byCount.sort(Comparator.comparingInt((String id) -> -assigned.get(id).size()).thenComparing(id -> id));
        Map<String, Integer> quota = new TreeMap<>();
        for (int i = 0; i < byCount.size(); i++) {
            quota.put(byCount.get(i), base + (i < extra ? 1 : 0));
        }
        assigned.forEach((id, held) -> {
            while (held.size() > quota.get(id)) {
                pool.add(held.remove(held.size() - 1));
            }
        });
        pool.sort(null);
        int next = 0;
        for (Map.Entry<String, List<Integer>> e : assigned.entrySet()) {
            while (e.getValue().size() < quota.get(e.getKey())) {
                int s = pool.get(next++);
                e.getValue().add(s);
                assignTo(s, e.getKey());
            }
        }
    }

    private void assignTo(int s, String to) {
        if (owner[s] == null) {
            grant(s, to);
        } else if (owner[s].equals(to)) {
            pendingTo[s] = null;
        } else {
            if (pendingTo[s] == null) {
                moves++;
                totalMoves++;
            }
            pendingTo[s] = to;
        }
    }

    /**
     * Writes what a restart of the whole cluster keeps of the group ({@link LeaseDisk}): its shards, its lease time,
     * each shard's fencing token, the worker numbering and the totals; not its workers, nor who holds what.
     */
    void writeKept(DataOutput out) throws IOException {
        out.writeInt(shards);
        out.writeLong(leaseMillis);
        out.writeLong(workerSeq);
        out.writeLong(totalGrants);
        out.writeLong(totalMoves);
        out.writeLong(totalExpiries);
        for (long shardToken : token) {
            out.writeLong(shardToken);
        }
    }

    /** The group a restart brings back ({@link #writeKept}): no workers, every shard free, its tokens as they were. */
    static LeaseGroup readKept(DataInput in) throws IOException {
        LeaseGroup group = new LeaseGroup(in.readInt(), in.readLong());
        group.workerSeq = in.readLong();
        group.totalGrants = in.readLong();
        group.totalMoves = in.readLong();
        group.totalExpiries = in.readLong();
        for (int s = 0; s < group.shards; s++) {
            group.token[s] = in.readLong();
        }
        return group;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeInt(shards);
        out.writeLong(leaseMillis);
        out.writeLong(workerSeq);
        // An array of three, as members of earlier builds write and read it: a rolling restart mixes them.
        out.writeLongArray(new long[] {totalGrants, totalMoves, totalExpiries});
        out.writeInt(workers.size());
        for (Worker worker : workers.values()) {
            out.writeString(worker.id());
            out.writeString(worker.requestId());
            out.writeLong(worker.expiresAt());
        }
        for (int s = 0; s < shards; s++) {
            out.writeString(owner[s]);
            out.writeString(pendingTo[s]);
            out.writeLong(token[s]);
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        shards = in.readInt();
        leaseMillis = in.readLong();
        workerSeq = in.readLong();
        long[] totals = in.readLongArray();
        totalGrants = totals[0];
        totalMoves = totals[1];
        totalExpiries = totals[2];
        int count = in.readInt();
        workers.clear();
        for (int i = 0; i < count; i++) {
            Worker worker = new Worker(in.readString(), in.readString(), in.readLong());
            workers.put(worker.id(), worker);
        }
        owner = new String[shards];
        pendingTo = new String[shards];
        token = new long[shards];
        for (int s = 0; s < shards; s++) {
            owner[s] = in.readString();
            pendingTo[s] = in.readString();
            token[s] = in.readLong();
        }
    }
}
