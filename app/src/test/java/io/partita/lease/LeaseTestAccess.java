package io.partita.lease;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.ClusterClock;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What tests of other packages need of the lease feature's package-private parts: its calls, on a bare member. */
public final class LeaseTestAccess {

    private LeaseTestAccess() {
    }

    /** A worker's lease as a call answered it: the worker, and its shards' fencing tokens by shard. */
    public record Lease(String workerId, Map<Integer, Long> tokens) {
    }

    /** What a group is: its shards, its lease time and how many workers it has now. */
    public record Group(int shards, long leaseMillis, int workers) {
    }

    /** Creates {@code group}; answers whether it was created (false: it existed). */
    public static boolean create(HazelcastInstance member, String group, int shards, long leaseMillis) {
        return call(member, group, LeaseCall.create(shards, leaseMillis, ClusterClock.now(member))).status()
                == LeaseAnswer.Status.CREATED;
    }

    public static Lease join(HazelcastInstance member, String group, String requestId) {
        return lease(call(member, group, LeaseCall.join(requestId, ClusterClock.now(member))));
    }

    /** The worker's lease renewed, or empty when the group does not know the worker (it must join again). */
    public static Optional<Lease> renew(HazelcastInstance member, String group, String workerId) {
        LeaseAnswer answer = call(member, group, LeaseCall.renew(workerId, ClusterClock.now(member)));
        return answer.status() == LeaseAnswer.Status.OK ? Optional.of(lease(answer)) : Optional.empty();
    }

    public static Optional<Group> find(HazelcastInstance member, String group) {
        return Optional.ofNullable(LeaseFeature.groups(member).get(group))
                .map(found -> new Group(found.shards(), found.leaseMillis(), found.workers().size()));
    }

    private static LeaseAnswer call(HazelcastInstance member, String group, LeaseCall call) {
        return LeaseFeature.groups(member).executeOnKey(group, call);
    }

    private static Lease lease(LeaseAnswer answer) {
        Map<Integer, Long> tokens = new TreeMap<>();
        answer.grants().forEach(grant -> tokens.put(grant.shard(), grant.token()));
        return new Lease(answer.workerId(), tokens);
    }
}
