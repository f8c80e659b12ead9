package io.partita.support;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.client.HttpClient;
import io.micronaut.runtime.server.EmbeddedServer;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.awaitility.Awaitility.await;

/**
 * Whole Partita nodes (Micronaut HTTP server plus embedded member) in this JVM, joined by TCP on 127.0.0.1 under a
 * cluster name of their own. Each node has its own HTTP port, as separate processes would.
 */
public final class TestNodes implements AutoCloseable {

    private final JoinList join = new JoinList();
    private final List<EmbeddedServer> servers = new CopyOnWriteArrayList<>();
    private final Map<String, Object> extra;

    private TestNodes(Map<String, Object> extra) {
        this.extra = extra;
    }

    public static TestNodes start(int size) {
        return start(size, Map.of());
    }

    /** {@code size} nodes; {@code extra} adds or overrides configuration on every node. */
    public static TestNodes start(int size, Map<String, Object> extra) {
        TestNodes nodes = new TestNodes(extra);
        for (int port : nodes.join.reserve(size)) {
            nodes.servers.add(nodes.startNode(port));
        }
        nodes.awaitSize(size);
        return nodes;
    }

    public EmbeddedServer addNode() {
        EmbeddedServer server = startNode(join.reserve());
        servers.add(server);
        return server;
    }

    public List<EmbeddedServer> servers() {
        return List.copyOf(servers);
    }

    public URL url(int index) {
        return servers.get(index).getURL();
    }

    public HttpClient client(int index) {
        return servers.get(index).getApplicationContext().createBean(HttpClient.class, url(index));
    }

    public HazelcastInstance member(int index) {
        return servers.get(index).getApplicationContext().getBean(HazelcastInstance.class);
    }

    /** Stops a node as SIGTERM would: the context closes and the member leaves gracefully. */
    public void stop(int index) {
        EmbeddedServer server = servers.remove(index);
        server.getApplicationContext().close();
    }

    /**
     * Crashes a node as {@code kill -9} would: its member stops at once without handing anything over (the others
     * promote backups), then the rest of its context is closed so that its threads stop too.
     */
    public void kill(int index) {
        EmbeddedServer server = servers.remove(index);
        server.getApplicationContext().getBean(HazelcastInstance.class).getLifecycleService().terminate();
        server.getApplicationContext().close();
    }

    public void awaitSize(int size) {
        await().atMost(Duration.ofSeconds(60)).until(() -> servers.stream().allMatch(server -> {
            HazelcastInstance member = server.getApplicationContext().getBean(HazelcastInstance.class);
            return member.getCluster().getMembers().size() == size && member.getPartitionService().isClusterSafe();
        }));
    }

    private EmbeddedServer startNode(int memberPort) {
        int httpPort = Ports.free();
        Map<String, Object> properties = new HashMap<>();
        properties.put("micronaut.server.port", httpPort);
        properties.put("partita.cluster-name", join.clusterName());
        properties.put("partita.discovery", "tcp");
        properties.put("partita.network.port", memberPort);
        properties.put("partita.members", String.join(",", join.addresses()));
        properties.putAll(extra);
        return ApplicationContext.run(EmbeddedServer.class, properties, "test");
    }

    @Override
    public void close() {
        List<EmbeddedServer> running = new ArrayList<>(servers);
        servers.clear();
        running.forEach(server -> {
            server.getApplicationContext().getBean(HazelcastInstance.class).getLifecycleService().terminate();
            server.getApplicationContext().close();
        });
    }
}
