package io.partita.node;

import com.hazelcast.cluster.Member;
import com.hazelcast.splitbrainprotection.HeartbeatAware;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionFunction;

import java.util.Collection;

/**
 * The split-brain protection of the ledger, jobs and schedules: a member serves while it hears from a majority of the
 * cluster it last saw whole ({@link Membership#hasMajority}), or, when {@code partita.split-brain-protection} sets a
 * count, from at least that many members. Heartbeats count by when they arrive, never by the time they carry.
 * Hazelcast calls both methods on its split-brain protection and heartbeat threads; the state is the
 * {@link Membership}'s.
 */
final class KeepMajority implements SplitBrainProtectionFunction, HeartbeatAware {

    private final Membership membership;
    private final int required;

    /** @param required the members to hear from, or 0 for a majority of the cluster when whole */
    KeepMajority(Membership membership, int required) {
        this.membership = membership;
        this.required = required;
    }

    @Override
    public boolean apply(Collection<Member> members) {
        return membership.hasMajority(members, required);
    }

    @Override
    public void onHeartbeat(Member member, long timestamp) {
        membership.heard(member);
    }
}
