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

/** The cluster as this node sees it: members, who owns how many partitions, and the CP Subsystem's mode. */
@Controller("/cluster")
class ClusterController {

    private final HazelcastInstance hazelcast;
    private final MigrationTracker migrations;
    private final CpMembership cp;

    ClusterController(HazelcastInstance hazelcast, MigrationTracker migrations, CpMembership cp) {
        this.hazelcast = hazelcast;
        this.migrations = migrations;
        this.cp = cp;
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
                hazelcast.getPartitionService().isClusterSafe(), migrations.inFlight(), members, cp.view());
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
