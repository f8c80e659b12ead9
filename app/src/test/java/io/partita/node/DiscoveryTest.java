package io.partita.node;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.partita.store.Durability;
import io.partita.support.AllFeatures;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Members find each other with no member list (multicast, on loopback), and discovery settings are checked. */
class DiscoveryTest {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldFormOneClusterFromTwoMembersByMulticastWithNoMemberList() {
        String clusterName = "multicast-" + UUID.randomUUID();
        int multicastPort = 40_000 + (int) (Math.random() * 20_000);
        HazelcastInstance first = Hazelcast.newHazelcastInstance(multicastConfig(clusterName, multicastPort));
        HazelcastInstance second = Hazelcast.newHazelcastInstance(multicastConfig(clusterName, multicastPort));
        try {
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    first.getCluster().getMembers().size() == 2 && second.getCluster().getMembers().size() == 2);
            assertEquals(first.getCluster().getMembers(), second.getCluster().getMembers());
            assertEquals(HazelcastConfigs.PARTITION_COUNT, first.getPartitionService().getPartitions().size());
        } finally {
            first.getLifecycleService().terminate();
            second.getLifecycleService().terminate();
        }
    }

    private static com.hazelcast.config.Config multicastConfig(String clusterName, int multicastPort) {
        PartitaProperties properties = new PartitaProperties(clusterName, PartitaProperties.Discovery.MULTICAST,
                List.of(), new PartitaProperties.Kubernetes(null),
                new PartitaProperties.Network("127.0.0.1", Ports.free(), "224.2.2.3", multicastPort),
                1, Duration.ofSeconds(15), null, TestProperties.cp(0),
                new PartitaProperties.Processing(ProcessingMode.PARTITIONED),
                new PartitaProperties.Journal(Duration.ofHours(1), 64, Duration.ofMillis(50), Duration.ofSeconds(2),
                        Duration.ofMinutes(1)), TestProperties.transfers(),
                Duration.ofSeconds(10), 0, 1, 1, TestProperties.NO_GROUPS, Durability.MEMORY, "partita-data", null);
        return HazelcastConfigs.memberConfig(properties, "http://127.0.0.1:0", AllFeatures.LIST);
    }

    @Test
    void shouldConfigureKubernetesDnsLookupFromTheServiceName() {
        PartitaProperties properties = kubernetes("partita.default.svc.cluster.local");
        var join = HazelcastConfigs.memberConfig(properties, "http://x", AllFeatures.LIST).getNetworkConfig().getJoin();

        assertEquals(true, join.getKubernetesConfig().isEnabled());
        assertEquals("partita.default.svc.cluster.local", join.getKubernetesConfig().getProperty("service-dns"));
        assertEquals(false, join.getMulticastConfig().isEnabled());
        assertEquals(false, join.getTcpIpConfig().isEnabled());
    }

    @Test
    void shouldRefuseKubernetesDiscoveryWithoutAServiceName() {
        assertThrows(IllegalArgumentException.class,
                () -> HazelcastConfigs.memberConfig(kubernetes(""), "http://x", AllFeatures.LIST));
    }

    private static PartitaProperties kubernetes(String serviceDns) {
        return new PartitaProperties("k8s", PartitaProperties.Discovery.KUBERNETES, List.of(),
                new PartitaProperties.Kubernetes(serviceDns),
                new PartitaProperties.Network("any", 5701, "224.2.2.3", 54327),
                1, Duration.ofSeconds(15), null, TestProperties.cp(0),
                new PartitaProperties.Processing(ProcessingMode.PARTITIONED),
                new PartitaProperties.Journal(Duration.ofHours(1), 64, Duration.ofMillis(50), Duration.ofSeconds(2),
                        Duration.ofMinutes(1)), TestProperties.transfers(),
                Duration.ofSeconds(10), 0, 1, 1, TestProperties.NO_GROUPS, Durability.MEMORY, "partita-data", null);
    }
}
