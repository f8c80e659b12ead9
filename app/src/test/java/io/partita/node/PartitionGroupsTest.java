package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;
import com.hazelcast.spi.partitiongroup.PartitionGroupMetaData;
import io.partita.support.AllFeatures;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zone-aware partition groups on real members: four members, two in each of two zones. Every partition's owner and
 * backup are in different zones, so losing a whole zone loses no partition.
 */
class PartitionGroupsTest {

    @Test
    void shouldKeepEveryPartitionsOwnerAndBackupInDifferentZones() {
        String clusterName = "zones-" + UUID.randomUUID();
        List<Integer> ports = List.of(Ports.free(), Ports.free(), Ports.free(), Ports.free());
        List<String> members = ports.stream().map(port -> "127.0.0.1:" + port).toList();
        List<String> zones = List.of("zone-a", "zone-a", "zone-b", "zone-b");
        List<HazelcastInstance> started = new ArrayList<>();
        try {
            List<CompletableFuture<HazelcastInstance>> starting = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                var properties = TestProperties.inZone(TestProperties.tcp(clusterName, ports.get(i), members, 0),
                        zones.get(i));
                var config = HazelcastConfigs.memberConfig(properties, "http://127.0.0.1:0", AllFeatures.LIST);
                starting.add(CompletableFuture.supplyAsync(() -> Members.start(config, AllFeatures.LIST)));
            }
            starting.forEach(member -> started.add(member.join()));
            HazelcastInstance any = started.get(0);
            await().atMost(Duration.ofSeconds(60)).until(() -> any.getCluster().getMembers().size() == 4
                    && any.getPartitionService().isClusterSafe());

            int apart = 0;
            for (Partition partition : any.getPartitionService().getPartitions()) {
                UUID ownerId = partition.getOwner().getUuid();
                List<UUID> backups = Internals.backupReplicas(any, partition.getPartitionId(), 1);
                assertEquals(1, backups.size(), "partition " + partition.getPartitionId() + " has its backup");
                assertNotEquals(zoneOf(any, ownerId), zoneOf(any, backups.get(0)),
                        "partition " + partition.getPartitionId() + ": owner and backup in one zone");
                apart++;
            }
            assertEquals(HazelcastConfigs.PARTITION_COUNT, apart);
        } finally {
            started.forEach(member -> member.getLifecycleService().terminate());
        }
    }

    @Test
    void shouldRefuseZoneGroupsWithoutTheMembersZone() {
        var properties = TestProperties.inZone(TestProperties.tcp("zones-none", Ports.free(), List.of(), 0), "");

        var refused = assertThrows(IllegalArgumentException.class,
                () -> HazelcastConfigs.memberConfig(properties, "http://127.0.0.1:0", AllFeatures.LIST));
        assertTrue(refused.getMessage().contains("PARTITA_PARTITION_GROUP_ZONE"), refused.getMessage());
    }

    private static String zoneOf(HazelcastInstance any, UUID member) {
        return any.getCluster().getMembers().stream().filter(m -> m.getUuid().equals(member)).findFirst()
                .orElseThrow().getAttribute(PartitionGroupMetaData.PARTITION_GROUP_ZONE);
    }
}
