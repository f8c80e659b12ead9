package io.partita.support;

import io.partita.node.PartitaProperties;
import io.partita.node.ProcessingMode;

import io.partita.store.Durability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** {@link PartitaProperties} for members that tests start outside a Micronaut context. */
public final class TestProperties {

    private TestProperties() {
    }

    /**
     * CP settings for tests: locks of a crashed member free after 10 s, a lock waited for 5 s, a crashed CP member
     * replaced after 10 s.
     */
    public static PartitaProperties.Cp cp(int members) {
        return new PartitaProperties.Cp(members, Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    /** Unfinished transfers are recovered 2 s after they began. */
    public static PartitaProperties.Transfers transfers() {
        return new PartitaProperties.Transfers(Duration.ofSeconds(2));
    }

    /** The journal writer as shipped: 24 h retention, 64 entries or 50 ms per flush, a sweep every 2 s. */
    public static PartitaProperties.Journal journal() {
        return new PartitaProperties.Journal(Duration.ofHours(24), 64, Duration.ofMillis(50), Duration.ofSeconds(2),
                Duration.ofMinutes(1));
    }

    /** No partition groups: a partition's copies on any two members, as by default. */
    public static final PartitaProperties.PartitionGroup NO_GROUPS =
            new PartitaProperties.PartitionGroup(PartitaProperties.GroupType.NONE, null);

    public static PartitaProperties tcp(String clusterName, int port, List<String> members, int cpMembers) {
        return tcp(clusterName, port, members, cpMembers, journal());
    }

    public static PartitaProperties tcp(String clusterName, int port, List<String> members, int cpMembers,
                                        PartitaProperties.Journal journal) {
        return new PartitaProperties(clusterName, PartitaProperties.Discovery.TCP, members,
                new PartitaProperties.Kubernetes(null),
                new PartitaProperties.Network("127.0.0.1", port, "224.2.2.3", 54327),
                1, Duration.ofSeconds(15), null,
                cp(cpMembers),
                new PartitaProperties.Processing(ProcessingMode.PARTITIONED),
                journal,
                transfers(), Duration.ofSeconds(10), 0, 0, 1, NO_GROUPS, Durability.MEMORY, "partita-data", null);
    }

    /** {@code base} for a cluster meant to have {@code clusterSize} members. */
    public static PartitaProperties withClusterSize(PartitaProperties base, int clusterSize) {
        return new PartitaProperties(base.clusterName(), base.discovery(), base.members(), base.kubernetes(),
                base.network(), base.minClusterSize(), base.heartbeatTimeout(), base.httpUrl(), base.cp(),
                base.processing(), base.journal(), base.transfers(), base.requestTimeout(),
                base.splitBrainProtection(), clusterSize, base.backupCount(), base.partitionGroup(), base.durability(),
                base.dataDir(), base.memberName());
    }

    /** {@code base} for a member in {@code zone}, with a partition's copies kept apart across zones. */
    public static PartitaProperties inZone(PartitaProperties base, String zone) {
        return new PartitaProperties(base.clusterName(), base.discovery(), base.members(), base.kubernetes(),
                base.network(), base.minClusterSize(), base.heartbeatTimeout(), base.httpUrl(), base.cp(),
                base.processing(), base.journal(), base.transfers(), base.requestTimeout(),
                base.splitBrainProtection(), base.clusterSize(), base.backupCount(),
                new PartitaProperties.PartitionGroup(PartitaProperties.GroupType.ZONE, zone), base.durability(), base.dataDir(),
                base.memberName());
    }

    /** {@code base} for a member that keeps its data on disk ({@code flush}) in {@code dataDir}/{@code memberName}. */
    public static PartitaProperties durable(PartitaProperties base, Path dataDir, String memberName) {
        return new PartitaProperties(base.clusterName(), base.discovery(), base.members(), base.kubernetes(),
                base.network(), base.minClusterSize(), base.heartbeatTimeout(), base.httpUrl(), base.cp(),
                base.processing(), base.journal(), base.transfers(), base.requestTimeout(),
                base.splitBrainProtection(), base.clusterSize(), base.backupCount(), base.partitionGroup(),
                Durability.FLUSH, dataDir.toString(), memberName);
    }
}
