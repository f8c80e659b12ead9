package io.partita.node;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.server.ServerConnectionManager;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.properties.ClusterProperty;
import io.partita.support.AllFeatures;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A member keeps reaching the other members while something keeps connecting it to a peer that accepts TCP and never
 * answers, the way a frozen member's kernel does. Hazelcast 5.4 spins the IO thread that owns such a connection without
 * returning to its selector; with one output thread (so the spinning one is sure to be the one that writes to the
 * other member) nothing left this member at all until {@link SilentPeers} closed the unanswered connections.
 */
class SilentPeersTest {

    private HazelcastInstance sender;
    private HazelcastInstance other;
    private SilentPeers silentPeers;
    private ServerSocket silent;
    private final ScheduledExecutorService connector = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() throws Exception {
        connector.shutdownNow();
        if (silentPeers != null) {
            silentPeers.stop();
        }
        for (HazelcastInstance member : new HazelcastInstance[] {sender, other}) {
            if (member != null) {
                member.getLifecycleService().terminate();
            }
        }
        if (silent != null) {
            silent.close();
        }
    }

    @Test
    void shouldKeepReachingTheClusterWhileAPeerThatNeverAnswersIsConnectedAgainAndAgain() throws Exception {
        String cluster = "silent-peers-" + UUID.randomUUID();
        int senderPort = Ports.free();
        int otherPort = Ports.free();
        List<String> members = List.of("127.0.0.1:" + senderPort, "127.0.0.1:" + otherPort);
        Config senderConfig = HazelcastConfigs.memberConfig(
                TestProperties.tcp(cluster, senderPort, members, 0), "http://127.0.0.1:0", AllFeatures.LIST);
        senderConfig.setProperty(ClusterProperty.IO_OUTPUT_THREAD_COUNT.getName(), "1");
        senderConfig.setProperty(ClusterProperty.IO_WRITE_THROUGH_ENABLED.getName(), "false");
        sender = Hazelcast.newHazelcastInstance(senderConfig);
        other = Hazelcast.newHazelcastInstance(HazelcastConfigs.memberConfig(
                TestProperties.tcp(cluster, otherPort, members, 0), "http://127.0.0.1:0", AllFeatures.LIST));
        await().atMost(Duration.ofSeconds(60)).until(() -> sender.getCluster().getMembers().size() == 2);
        IMap<String, Integer> map = sender.getMap("silent-peers");
        map.size(); // assigns the partitions
        await().atMost(Duration.ofSeconds(60)).until(() -> sender.getPartitionService().isClusterSafe());
        silentPeers = new SilentPeers(sender);

        // Listening, never accepting: the kernel completes every TCP handshake and nothing ever answers.
        silent = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        Address silentAddress = new Address("127.0.0.1", silent.getLocalPort());
        ServerConnectionManager connections = Internals.memberConnections(sender);
        AtomicInteger attempts = new AtomicInteger();
        // What a send to an address without a connection does (Raft to a removed CP member, the split-brain search).
        connector.scheduleWithFixedDelay(() -> {
            connections.getOrConnect(silentAddress);
            attempts.incrementAndGet();
        }, 0, 100, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 5);

        int written = 0;
        for (int i = 0; written < 20; i++) {
            String key = "key-" + i;
            if (other.getPartitionService().getPartition(key).getOwner().localMember()) {
                map.putAsync(key, i).toCompletableFuture().get(10, TimeUnit.SECONDS);
                written++;
            }
        }
        assertEquals(20, other.getMap("silent-peers").size(), "every write reached the member that owns the key");
    }
}
