package io.partita.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.partita.account.MemberLedger;

/** Starts a Partita member: the one way a node, a test or a benchmark gets one. */
public final class Members {

    private Members() {
    }

    /** Whether {@code member} is the cluster's oldest member, the one that runs the cluster-wide housekeeping. */
    public static boolean isOldest(HazelcastInstance member) {
        return member.getCluster().getMembers().iterator().next().localMember();
    }

    /**
     * Starts a member with the given configuration (from {@link HazelcastConfigs}) after making Partita's continuation
     * pool Hazelcast's default async executor, creates its maps' proxies before anything uses them, and starts the
     * member's partition sentinels and journal writer.
     */
    public static HazelcastInstance start(Config config) {
        Continuations.install();
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        Maps.createProxies(member);
        PartitionSentinels.of(member).start();
        MemberLedger.start(member);
        return member;
    }
}
