package io.partita.load;

import io.partita.support.Ports;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A cluster of {@link NodeProcess}es on loopback with a unique cluster name and free ports, joined by TCP discovery
 * with every member listed (PARTITA_MEMBERS), as compose configures its three nodes.
 */
final class ProcessCluster implements AutoCloseable {

    final String clusterName;
    private final Map<String, String> env = new HashMap<>();
    private final List<NodeProcess> nodes = new ArrayList<>();
    private final List<Integer> memberPorts = new ArrayList<>();
    private int started;

    ProcessCluster(String test, int size, Map<String, String> extraEnv) {
        this.clusterName = test + "-" + UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < size + 1; i++) {
            memberPorts.add(Ports.free());
        }
        env.put("PARTITA_CLUSTER_NAME", clusterName);
        env.put("PARTITA_DISCOVERY", "tcp");
        // Every port the cluster may ever use, including the one a joining node takes later.
        env.put("PARTITA_MEMBERS", memberPorts.stream().map(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(",")));
        env.put("PARTITA_NETWORK_HOST", "127.0.0.1");
        // As compose: a member that sees fewer than 2 of the 3 refuses the ledger (503) instead of serving stale data.
        env.put("PARTITA_SPLIT_BRAIN_PROTECTION", "2");
        env.putAll(extraEnv);
        for (int i = 0; i < size; i++) {
            nodes.add(new NodeProcess(clusterName + "-n" + (i + 1), Ports.free(), memberPorts.get(i), env));
        }
    }

    ProcessCluster start() throws IOException {
        // If the test JVM is stopped before @AfterAll runs, the nodes must not outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(this::close));
        for (NodeProcess node : nodes) {
            node.start();
        }
        started = nodes.size();
        awaitSafe(nodes.size());
        return this;
    }

    NodeProcess node(int index) {
        return nodes.get(index);
    }

    List<URI> urls() {
        return nodes.stream().map(NodeProcess::url).toList();
    }

    /** Restarts a stopped node on the same ports (a crashed host coming back). */
    NodeProcess restart(int index) throws IOException {
        NodeProcess old = nodes.get(index);
        old.destroy();
        NodeProcess again = new NodeProcess(old.name + "-r" + (++started), old.httpPort, old.memberPort, env);
        nodes.set(index, again);
        return again.start();
    }

    /** Starts one more node on the spare member port (already in everyone's PARTITA_MEMBERS). */
    NodeProcess join() throws IOException {
        NodeProcess node = new NodeProcess(clusterName + "-n" + (nodes.size() + 1), Ports.free(),
                memberPorts.get(nodes.size()), env);
        nodes.add(node);
        return node.start();
    }

    /** Waits until every running node answers and sees a safe cluster of the given size. */
    void awaitSafe(int members) {
        awaitSafe(members, nodes.stream().filter(NodeProcess::alive).toList(), Duration.ofSeconds(120));
    }

    /**
     * Waits until each of {@code which} answers and sees a safe cluster of the given size; a failure names what each
     * node last answered, and whether its process is still alive.
     */
    void awaitSafe(int members, List<NodeProcess> which, Duration atMost) {
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(500))
                    .until(() -> which.stream().allMatch(n -> n.safeWith(members)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no safe cluster of " + members + " within " + atMost.toSeconds() + " s: "
                    + which.stream().map(NodeProcess::describe).collect(Collectors.joining("; ")), e);
        }
    }

    @Override
    public void close() {
        nodes.forEach(NodeProcess::destroy);
    }
}
