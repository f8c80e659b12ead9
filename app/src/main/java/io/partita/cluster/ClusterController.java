package io.partita.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The cluster as this node sees it: members, who owns how many partitions, and the CP Subsystem's mode; the
 * partition table with entry counts, each node's share and rate, and the migrations since this node joined. The
 * dashboard polls these every second, so each answer is built from tables the member keeps and counts that
 * {@link PartitionViews} gathers at most twice a second.
 */
@Controller("/cluster")
class ClusterController {

    private final HazelcastInstance hazelcast;
    private final MigrationTracker migrations;
    private final CpMembership cp;
    private final PartitionViews views;
    private final ClusterSafety safety;

    ClusterController(HazelcastInstance hazelcast, MigrationTracker migrations, CpMembership cp,
                      PartitionViews views, ClusterSafety safety) {
        this.hazelcast = hazelcast;
        this.safety = safety;
        this.migrations = migrations;
        this.cp = cp;
        this.views = views;
    }

    @Get
    @ExecuteOn(TaskExecutors.BLOCKING)
    ClusterView cluster() {
        Map<UUID, Integer> owned = new HashMap<>();
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            Member owner = partition.getOwner();
            if (owner != null) {
                owned.merge(owner.getUuid(), 1, Integer::sum);
            }
        }
        List<MemberView> members = hazelcast.getCluster().getMembers().stream()
                .map(member -> new MemberView(member.getUuid().toString(), address(member),
                        member.getAttribute(HazelcastConfigs.HTTP_URL_ATTRIBUTE), member.localMember(),
                        owned.getOrDefault(member.getUuid(), 0)))
                .sorted(Comparator.comparing(MemberView::address))
                .toList();
        return new ClusterView(hazelcast.getConfig().getClusterName(), HazelcastConfigs.PARTITION_COUNT,
                safety.isSafe(), migrations.inFlight(), members, cp.view());
    }

    /** All 271 partitions in id order: owner, backups and the accounts in each. */
    @Get("/partitions")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<PartitionViews.PartitionView> partitions() {
        return views.partitions();
    }

    /** Each member with its owned partitions and accounts and its node's transactions per second. */
    @Get("/nodes")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<PartitionViews.NodeView> nodes() {
        return views.nodes();
    }

    /** The whole cluster's migrations since this node joined, with the most recent ones and their durations. */
    @Get("/migrations")
    MigrationTracker.MigrationsView migrations() {
        return migrations.view();
    }

    static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    @Serdeable
    record ClusterView(String clusterName, int partitionCount, boolean clusterSafe, int migrationsInFlight,
                       List<MemberView> members, CpView cp) {
    }

    @Serdeable
    record MemberView(String uuid, String address, @Nullable String httpUrl, boolean local, int ownedPartitions) {
    }

    /**
     * @param mode       RAFT (CP members run Raft groups) or UNSAFE (no Raft: lock state in ordinary partitions)
     * @param members    the CP members now (0 in unsafe mode)
     * @param configured {@code partita.cp.members}
     * @param available  whether the CP Subsystem answered just now; when not, {@code members} is the last known count
     * @param local      whether this node is a CP member
     */
    @Serdeable
    record CpView(String mode, int members, int configured, boolean available, boolean local) {
    }
}
