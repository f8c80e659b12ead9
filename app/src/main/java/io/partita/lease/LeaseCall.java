package io.partita.lease;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One change to a lease group, run where the group lives: create it, join, renew, leave, or expire the workers whose
 * lease ended. A renewal is this one operation on the group's partition, separate from any work the worker does.
 * Runs on the partition thread of the group's key, owner and backup alike (see above for a run again
 * after a failover).
 *
 * <p>Deterministic: the node's clock travels in {@code now}, and the backup replica runs the same call on its own copy
 * (the default backup processor is the processor itself), reaching the same state. A retry after a failover is safe:
 * a join with the same request id finds the worker it created, a renewal extends the lease again, a leave of a worker
 * already gone answers {@link LeaseAnswer.Status#UNKNOWN_WORKER}.
 *
 * <p>Owner and backup alike write the group to their disks ({@link LeaseDisk}) when the call may have changed what a
 * restart keeps of it: every call that stores the group but a renewal that granted, revoked and expired nothing (it
 * moved only its worker's lease end, which the disk does not keep).
 */
@ClassId(101)
public final class LeaseCall
        implements EntryProcessor<String, LeaseGroup, LeaseAnswer>, FieldList, HazelcastInstanceAware {

    enum Kind { CREATE, JOIN, RENEW, LEAVE, EXPIRE }

    private Kind kind;
    private long now;
    /** The request id of a join, or the worker of a renewal or leave. */
    private String who;
    private int shards;
    private long leaseMillis;
    /** The member it runs on, injected on arrival: its disk takes the group too. */
    private transient HazelcastInstance member;

    public LeaseCall() {
    }

    private LeaseCall(Kind kind, long now, String who, int shards, long leaseMillis) {
        this.kind = kind;
        this.now = now;
        this.who = who;
        this.shards = shards;
        this.leaseMillis = leaseMillis;
    }

    static LeaseCall create(int shards, long leaseMillis, long now) {
        return new LeaseCall(Kind.CREATE, now, null, shards, leaseMillis);
    }

    static LeaseCall join(String requestId, long now) {
        return new LeaseCall(Kind.JOIN, now, requestId, 0, 0);
    }

    static LeaseCall renew(String workerId, long now) {
        return new LeaseCall(Kind.RENEW, now, workerId, 0, 0);
    }

    static LeaseCall leave(String workerId, long now) {
        return new LeaseCall(Kind.LEAVE, now, workerId, 0, 0);
    }

    static LeaseCall expire(long now) {
        return new LeaseCall(Kind.EXPIRE, now, null, 0, 0);
    }

    @Override
    public LeaseAnswer process(Map.Entry<String, LeaseGroup> entry) {
        LeaseGroup group = entry.getValue();
        if (kind == Kind.CREATE) {
            if (group == null) {
                LeaseGroup created = new LeaseGroup(shards, leaseMillis);
                entry.setValue(created);
                stored(entry.getKey(), created);
                return LeaseAnswer.of(LeaseAnswer.Status.CREATED);
            }
            boolean same = group.shards() == shards && group.leaseMillis() == leaseMillis;
            return LeaseAnswer.of(same ? LeaseAnswer.Status.OK : LeaseAnswer.Status.CONFLICT);
        }
        if (group == null) {
            return LeaseAnswer.of(LeaseAnswer.Status.NO_GROUP);
        }
        LeaseAnswer answer = switch (kind) {
            case JOIN -> {
                LeaseGroup.Worker worker = group.join(who, now);
                yield answer(group, LeaseAnswer.Status.OK, worker.id(), group.held(worker.id()));
            }
            case RENEW -> {
                List<LeaseGroup.Grant> held = group.renew(who, now);
                yield held == null ? answer(group, LeaseAnswer.Status.UNKNOWN_WORKER, who, List.of())
                        : answer(group, LeaseAnswer.Status.OK, who, held);
            }
            case LEAVE -> answer(group, group.leave(who, now) ? LeaseAnswer.Status.OK
                    : LeaseAnswer.Status.UNKNOWN_WORKER, who, List.of());
            case EXPIRE -> {
                group.expire(now);
                yield answer(group, LeaseAnswer.Status.OK, null, List.of());
            }
            case CREATE -> throw new IllegalStateException("handled above");
        };
        // Every call but a sweep that found nothing changes the group (a lease extended, a worker gone), and is stored
        // and backed up; the sweep runs over every group every second and leaves the idle ones alone.
        if (kind != Kind.EXPIRE || answer.changes().expiries() > 0) {
            entry.setValue(group);
            if (changesWhatIsKept(answer)) {
                stored(entry.getKey(), group);
            }
        }
        return answer;
    }

    /** Whether the call may have changed what the disk keeps: all but a renewal that changed nothing for the others. */
    private boolean changesWhatIsKept(LeaseAnswer answer) {
        LeaseGroup.Changes changes = answer.changes();
        return kind != Kind.RENEW || changes.grants() + changes.moves() + changes.expiries() > 0;
    }

    /** Writes the group to the disk of the member it runs on (none on a plain entry, in tests). */
    private void stored(String name, LeaseGroup group) {
        if (member != null) {
            LeaseDisk.KIND.stored(member, name, group);
        }
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    private static LeaseAnswer answer(LeaseGroup group, LeaseAnswer.Status status, String workerId,
                                      List<LeaseGroup.Grant> grants) {
        return new LeaseAnswer(status, workerId, group.leaseMillis(), grants, group.drainChanges(), -1);
    }

    @Override
    public void fields(Fields fields) throws IOException {
        kind = fields.ordinal(kind, Kind.values());
        now = fields.int64(now);
        who = fields.string(who);
        shards = fields.int32(shards);
        leaseMillis = fields.int64(leaseMillis);
    }
}
