package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import io.partita.node.ClusterClock;
import io.partita.node.Members;
import io.partita.node.Membership;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes recorded entries to the journal, off the request path, many per operation. One per member.
 * <b>Threads:</b> entry processors {@link #offer} entries on the partition threads of the accounts they wrote (never
 * blocking: a concurrent queue per partition); the writer's own thread drains a partition once {@code flushBatch}
 * entries wait in it or the oldest has waited {@code flushDelay}, and writes everything due with one {@code setAll}
 * (one operation per partition, one message per member). Only this thread makes grid calls. The counters the meters
 * read are atomic, and the flags and the last time the cluster was whole are volatile.
 *
 * <p>The entries leave their tails later, in the account's next write (which finds them in the partition's journal,
 * see {@code LedgerWrites}) or, for an account with no next write, in the sweep.
 *
 * <p>Failure: an entry leaves its tail only once the partition's journal holds it, so at every moment an entry is in
 * the tail, the journal, or both, and a crash at any point loses nothing: a member that dies with entries queued
 * leaves them in the tails, which its partitions' new owners hold. A failed write is queued again after a pause. The
 * oldest member sweeps every {@code sweepInterval}: tail entries older than the grace that the journal holds leave
 * their tails, and those it does not (a dead member's queue, a migration, a queue that overflowed) are written;
 * writing an entry twice stores the same value. It also deletes the map's entries older than its window (the whole
 * retention in memory mode), every quarter of the window and at least once a minute, also under sustained load.
 *
 * <p>With the journal on disk, once every entry of the member's tails is on its disk ({@link LedgerDisk#tailsOnDisk}),
 * tails let go of entries without the journal map, which keeps only its window for SQL: then an offer past
 * {@link #MAX_PENDING_ON_DISK} queued entries is skipped for good (counted), and the node does not refuse work for the
 * writer's sake ({@link JournalBacklog}).
 */
final class JournalWriter {

    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    /** Entries queued at most; past it an offer is dropped and the sweep writes it from its tail later. */
    static final int MAX_PENDING = 500_000;
    /**
     * Entries queued at most while every tail entry is on the member's disk ({@link LedgerDisk#tailsOnDisk}): the map
     * is then only the SQL view's window on the last seconds, and an offer past this is skipped for good (counted)
     * rather than the node refusing work for its sake ({@link JournalBacklog}).
     */
    static final int MAX_PENDING_ON_DISK = MAX_PENDING / 5;
    /** The most entries one round writes, so that one operation stays short on its partition thread. */
    private static final int MAX_ROUND = 20_000;
    private static final long RETENTION_CHECK_MILLIS = 60_000;
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long ASK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final HazelcastInstance hazelcast;
    private final JournalSettings settings;
    private final Lane[] lanes;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final BooleanSupplier tailsOnDisk;
    private final AtomicLong written = new AtomicLong();
    /** Moves on when queued entries are discarded; a failed write queues its entries again only within one epoch. */
    private final AtomicLong epoch = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    /** While a split-brain merge is under way: neither writes nor sweeps (see {@link MemberLedger#start}). */
    private volatile boolean paused;
    /** Set by {@link #start} before the writer thread starts; after that only the writer thread touches them. */
    private long nextSweep;
    private long nextRetentionCheck;
    private final Membership membership;
    private final ClusterClock clock;
    /** When this member last saw the whole cluster, by {@link System#nanoTime()}; see {@link #holdCutoff}. */
    private volatile long lastWhole = System.nanoTime();
    /** When {@link #holdCutoff} last asked whether the cluster is whole, by {@link System#nanoTime()}. */
    private volatile long lastAsked = System.nanoTime();

    JournalWriter(HazelcastInstance hazelcast, JournalSettings settings, int partitionCount,
                  BooleanSupplier tailsOnDisk) {
        this.hazelcast = hazelcast;
        this.tailsOnDisk = tailsOnDisk;
        this.settings = settings;
        this.membership = Membership.of(hazelcast);
        this.clock = ClusterClock.of(hazelcast);
        this.lanes = new Lane[partitionCount];
        for (int i = 0; i < partitionCount; i++) {
            lanes[i] = new Lane();
        }
        this.thread = new Thread(this::run, "partita-journal-" + hazelcast.getName());
        this.thread.setDaemon(true);
    }

    void start() {
        long now = clock.now();
        nextSweep = now + settings.sweepInterval().toMillis();
        nextRetentionCheck = now + retentionCheckMillis();
        thread.start();
    }

    void stop() {
        running = false;
        LockSupport.unpark(thread);
    }

    /** Stops or resumes writing and sweeping; what is queued meanwhile waits. */
    void pause(boolean pause) {
        paused = pause;
        LockSupport.unpark(thread);
    }

    /** Queues entries recorded on one account of {@code partition}; called on that partition's thread. */
    void offer(int partition, List<JournalEntry> entries) {
        int count = entries.size();
        if (pending.get() + count > (tailsOnDisk.getAsBoolean() ? MAX_PENDING_ON_DISK : MAX_PENDING)) {
            dropped.addAndGet(count);
            return;
        }
        Lane lane = lanes[partition];
        lane.entries.addAll(entries);
        if (lane.size.getAndAdd(count) == 0) {
            lane.since = System.nanoTime();
        }
        pending.addAndGet(count);
    }

    /** Drops every queued entry (they are still in their tails), and any a write under way would queue again. */
    void discardPending() {
        epoch.incrementAndGet();
        for (Lane lane : lanes) {
            int dropped = lane.drainTo(new ArrayList<>(), Integer.MAX_VALUE);
            pending.addAndGet(-dropped);
        }
    }

    /** Entries written to the journal by this member since it started. */
    long written() {
        return written.get();
    }

    /** Entries this member offered to the journal and did not queue: its queue was full. */
    long dropped() {
        return dropped.get();
    }

    /** Entries waiting for a write on this member now. */
    int pending() {
        return pending.get();
    }

    private void run() {
        while (running) {
            try {
                if (paused) {
                    LockSupport.parkNanos(IDLE_PARK_NANOS * 10);
                } else {
                    // Housekeeping on every turn, not only when no write is due: under sustained load some partition
                    // is always due, and the map's retention would never run (its window grew with the load).
                    boolean wrote = flushDue();
                    housekeeping();
                    if (!wrote) {
                        LockSupport.parkNanos(IDLE_PARK_NANOS);
                    }
                }
            } catch (HazelcastInstanceNotActiveException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("Journal write failed, retrying: {}", e.toString());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
    }

    /** Writes every partition that is due; false when none was. */
    private boolean flushDue() {
        long now = System.nanoTime();
        long delay = settings.flushDelay().toNanos();
        List<JournalEntry> round = new ArrayList<>();
        for (Lane lane : lanes) {
            int size = lane.size.get();
            if (size > 0 && (size >= settings.flushBatch() || now - lane.since >= delay)
                    && round.size() < MAX_ROUND) {
                lane.drainTo(round, size);
            }
        }
        if (round.isEmpty()) {
            return false;
        }
        pending.addAndGet(-round.size());
        write(round);
        return true;
    }

    /** Journals {@code entries}; on a failed write they wait for the next round. */
    private void write(List<JournalEntry> entries) {
        Map<JournalKey, JournalRecord> records = new HashMap<>(entries.size() * 2);
        for (JournalEntry entry : entries) {
            records.put(entry.key(), JournalRecord.of(entry));
        }
        long writing = epoch.get();
        try {
            journal().setAll(records);
        } catch (RuntimeException e) {
            if (epoch.get() == writing) {
                requeue(entries);
            }
            throw e;
        }
        written.addAndGet(entries.size());
    }

    private void requeue(List<JournalEntry> entries) {
        Map<Integer, List<JournalEntry>> byPartition = new HashMap<>();
        for (JournalEntry entry : entries) {
            byPartition.computeIfAbsent(partitionOf(entry.accountId()), p -> new ArrayList<>()).add(entry);
        }
        byPartition.forEach(this::offer);
    }

    private int partitionOf(String accountId) {
        return hazelcast.getPartitionService().getPartition(accountId).getPartitionId();
    }

    /** How often the oldest member deletes the journal map's expired entries: a quarter of its window, at most 60 s. */
    private long retentionCheckMillis() {
        return Math.max(1, Math.min(RETENTION_CHECK_MILLIS, settings.inMemory().toMillis() / 4));
    }

    /** The oldest member's periodic work: the sweep of stale tails, and the journal's retention. */
    private void housekeeping() {
        long now = clock.now();
        if (now < nextSweep && now < nextRetentionCheck) {
            return;
        }
        boolean mine = Members.isOldest(hazelcast);
        if (now >= nextSweep) {
            nextSweep = now + settings.sweepInterval().toMillis();
            if (mine) {
                // Entries the tails hold on purpose are not stale: they stay whether the journal holds them or not.
                // While members are missing the hold cutoff stands still, and what a dead member never journaled
                // since then must still reach the journal: the sweep then looks at everything past the grace.
                long holdCutoff = holdCutoff();
                long staleBefore = now - settings.sweepGrace().toMillis();
                boolean whole = membership == null || membership.whole();
                sweep(whole ? Math.min(staleBefore, holdCutoff) : staleBefore, holdCutoff);
            }
        }
        if (now >= nextRetentionCheck) {
            nextRetentionCheck = now + retentionCheckMillis();
            if (mine) {
                // In memory mode, while members are missing the map keeps everything since the hold cutoff (which
                // then stands still): a merge puts back from it what tails shed past their cap (TailRestore). With the
                // journal on disk the merge reads the disk, and the map keeps its window only. The removal is an
                // operation on every partition, each with its backup, every 1.25 s with the journal on disk: on an
                // idle cluster it was half of what the members sent each other, so an empty map is asked first (one
                // question per member).
                long expired = now - settings.inMemory().toMillis();
                IMap<JournalKey, JournalRecord> journal = journal();
                if (!journal.isEmpty()) {
                    journal.removeAll(new ExpiredBefore(settings.onDisk() ? expired : Math.min(expired, holdCutoff())));
                }
            }
        }
    }

    /**
     * For every tail entry recorded before {@code cutoffAt}: trims it if the journal holds it and it was recorded
     * before {@code holdCutoff}, and queues it if the journal does not hold it (it should by now). One operation per
     * partition.
     */
    void sweep(long cutoffAt, long holdCutoff) {
        Map<String, Object> unjournaled = accounts().executeOnEntries(new TrimTails(null, holdCutoff, cutoffAt),
                new StaleTail(cutoffAt));
        for (Map.Entry<String, Object> left : unjournaled.entrySet()) {
            if (left.getValue() instanceof Account account) {
                offer(partitionOf(left.getKey()), account.tailEntries(left.getKey()).stream()
                        .filter(entry -> entry.at() < cutoffAt).toList());
            }
        }
    }

    /**
     * Tail entries recorded at or after this instant (cluster time) stay in their tails even once journaled: those of
     * the last {@code hold} while the cluster is whole, and while members are missing ({@link Membership}: removed
     * without leaving, so possibly alive on the other side of a split), everything since {@code hold} before it last
     * was. What this side recorded since a split (including before it noticed) is then still in its accounts when the
     * two sides merge. How long ago the cluster was whole is measured on this member's monotonic clock and taken
     * back from the cluster's time now, so that a step of the cluster's time (a new master with another clock) moves
     * the cutoff with the entries' stamps. Called on partition threads, often: it asks whether the cluster is whole at
     * most every 100 ms.
     */
    long holdCutoff() {
        long now = System.nanoTime();
        if (now - lastAsked >= ASK_EVERY_NANOS) {
            lastAsked = now;
            if (membership == null || membership.whole()) {
                lastWhole = now;
            }
        }
        long sinceWhole = TimeUnit.NANOSECONDS.toMillis(Math.max(0, now - lastWhole));
        return clock.now() - sinceWhole - settings.hold().toMillis();
    }

    private IMap<JournalKey, JournalRecord> journal() {
        return AccountFeature.journal(hazelcast);
    }

    private IMap<String, Account> accounts() {
        return AccountFeature.accounts(hazelcast);
    }

    /** One partition's queue: many producers (its partition thread, the sweep), one consumer (the writer). */
    private static final class Lane {
        final ConcurrentLinkedQueue<JournalEntry> entries = new ConcurrentLinkedQueue<>();
        final AtomicInteger size = new AtomicInteger();
        volatile long since;

        int drainTo(List<JournalEntry> round, int count) {
            int taken = 0;
            JournalEntry entry;
            while (taken < count && (entry = entries.poll()) != null) {
                round.add(entry);
                taken++;
            }
            if (size.addAndGet(-taken) > 0) {
                since = System.nanoTime();
            }
            return taken;
        }
    }
}
