package io.partita.node;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.IExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What one member tells every member about the membership ({@link Membership}): that it is leaving gracefully (sent
 * as it starts shutting down, before it hands its partitions over, so that its removal is not taken for a split), or
 * that an admin declared the missing members gone.
 * {@link #call} runs on the thread of the {@code partita.membership} executor of each member it is
 * sent to.
 */
@ClassId(84)
public final class MembershipNotice implements Callable<Boolean>, HazelcastInstanceAware, FieldList {

    /** The executor the notices travel on: one thread, apart from every other pool. */
    static final String EXECUTOR = "partita.membership";
    private static final Logger LOG = LoggerFactory.getLogger(MembershipNotice.class);
    private static final long LEAVE_WAIT_MILLIS = 2_000;
    /** How long a declaration waits for the membership to have seen the member list's latest changes. */
    private static final long CATCH_UP_MILLIS = 5_000;

    private transient HazelcastInstance hazelcast;
    private boolean forget;
    private UUID member;
    private String by;

    public MembershipNotice() {
    }

    private MembershipNotice(boolean forget, UUID member, String by) {
        this.forget = forget;
        this.member = member;
        this.by = by;
    }

    /**
     * Tells every other member that {@code hazelcast}'s member is leaving; waits up to 2 s for them to hear it. A
     * member that does not hear it in time takes the removal for a possible split: safe, it only holds more.
     */
    static void announceLeave(HazelcastInstance hazelcast) {
        try {
            Member local = hazelcast.getCluster().getLocalMember();
            if (hazelcast.getCluster().getMembers().size() < 2) {
                return;
            }
            Map<Member, Future<Boolean>> sent = executor(hazelcast).submitToMembers(
                    new MembershipNotice(false, local.getUuid(), ""), member -> !member.localMember());
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEAVE_WAIT_MILLIS);
            for (Future<Boolean> answer : sent.values()) {
                answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (HazelcastInstanceNotActiveException e) {
            // Stopped already: a SIGTERM runs Hazelcast's own shutdown hook, which announced the leave, and then
            // Micronaut's stop of the instance, which fires SHUTTING_DOWN once more on a member that is gone.
            LOG.debug("This member stopped before it could say again that it is leaving");
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("Not every member heard that this one is leaving ({}); they hold what a merge needs until as "
                    + "many members are back", e.toString());
        }
    }

    /**
     * This member's membership once it has seen every change of the member list, or after 5 s: a member removed a
     * moment ago reaches it on an event thread after the list has changed, and a declaration that came first would
     * forget nothing (the member would count as missing from then on, and a survivor of two would lack its majority).
     */
    private static Membership caughtUp(HazelcastInstance hazelcast) {
        Membership membership = Membership.of(hazelcast);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CATCH_UP_MILLIS);
        while (membership.view().present() != hazelcast.getCluster().getMembers().size()
                && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return membership;
    }

    /**
     * Declares the missing members gone on every member, on behalf of {@code by}; answers what this member
     * declared.
     */
    public static Membership.Forgotten forgetMissing(HazelcastInstance hazelcast, String by) {
        try {
            if (hazelcast.getCluster().getMembers().size() > 1) {
                executor(hazelcast).submitToMembers(new MembershipNotice(true, null, by),
                        member -> !member.localMember());
            }
        } catch (RejectedExecutionException e) {
            // The others left meanwhile: there is no one else to tell.
        }
        return caughtUp(hazelcast).forgetMissing(by);
    }

    private static IExecutorService executor(HazelcastInstance hazelcast) {
        return hazelcast.getExecutorService(EXECUTOR);
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }

    @Override
    public Boolean call() {
        if (forget) {
            caughtUp(hazelcast).forgetMissing(by);
        } else {
            Membership.of(hazelcast).leaving(member);
        }
        return true;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        forget = fields.int32(forget ? 1 : 0) == 1;
        member = fields.value(member, (out, id) -> {
            out.writeBoolean(id != null);
            if (id != null) {
                out.writeLong(id.getMostSignificantBits());
                out.writeLong(id.getLeastSignificantBits());
            }
        }, in -> in.readBoolean() ? new UUID(in.readLong(), in.readLong()) : null);
        by = fields.string(by);
    }
}
