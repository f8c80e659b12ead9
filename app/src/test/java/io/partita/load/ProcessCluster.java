package io.partita.load;

import io.partita.support.Ports;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A cluster of {@link NodeProcess}es with a unique cluster name, configured as {@code docker/compose.yaml} configures
 * its nodes: TCP discovery with every member listed, CP Subsystem with 3 members, readiness and split-brain protection
 * from the cluster's size (a majority of it). What differs, because the nodes share one host: on loopback (the
 * default) member addresses are 127.0.0.1:port instead of container names, each node has its own HTTP and member port,
 * and the member binds to loopback instead of the container's interface; in network namespaces ({@link Netns}) each
 * node has its own address and the standard ports, as a container would. A test may add timing variables (heartbeat,
 * request and lock timeouts), nothing else.
 */
final class ProcessCluster implements AutoCloseable {

    /**
     * The variables a test may set on top of compose's configuration: timing, and the two split settings the README
     * describes (protection off or a fixed count, an explicit cluster size), which no test needs by default.
     */
    static final Set<String> TIMING = Set.of("PARTITA_HEARTBEAT_TIMEOUT", "PARTITA_REQUEST_TIMEOUT",
            "PARTITA_CP_LOCK_TIMEOUT", "PARTITA_CP_SESSION_TTL", "PARTITA_CP_MISSING_MEMBER_REMOVAL",
            "PARTITA_SPLIT_BRAIN_PROTECTION", "PARTITA_CLUSTER_SIZE");
    /** What one node's process may have on top of the cluster's variables: a faked wall clock (libfaketime). */
    static final Set<String> NODE_ONLY = Set.of("LD_PRELOAD", "FAKETIME", "FAKETIME_TIMESTAMP_FILE",
            "FAKETIME_CACHE_DURATION", "FAKETIME_DONT_FAKE_MONOTONIC", "FAKETIME_FORCE_MONOTONIC_FIX");

    final String clusterName;
    private final Map<String, String> env = new HashMap<>();
    private final List<NodeProcess> nodes = new ArrayList<>();
    private final Map<Integer, Map<String, String>> nodeEnv = new HashMap<>();
    /** Where each node runs, including the places a node that joins later may take. */
    private final List<NodeProcess.Place> places;
    private int started;

    /** {@code size} nodes on loopback, and room for one more to {@link #join}. */
    ProcessCluster(String test, int size, Map<String, String> timing) {
        this(test, size, loopback(size + 1), timing);
    }

    /** One node in each of {@code netns}'s namespaces. */
    static ProcessCluster inNamespaces(String test, Netns netns, int size, Map<String, String> timing) {
        List<NodeProcess.Place> places = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            places.add(new NodeProcess.Place(netns.clientAddress(i), 8080, netns.memberAddress(i), 5701,
                    netns.launcher(i)));
        }
        return new ProcessCluster(test, size, places, timing);
    }

    private ProcessCluster(String test, int size, List<NodeProcess.Place> places, Map<String, String> timing) {
        if (!TIMING.containsAll(timing.keySet())) {
            throw new IllegalArgumentException("only " + TIMING + " may differ from compose: " + timing.keySet());
        }
        this.clusterName = test + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.places = places;
        // As docker/compose.yaml, each value:
        env.put("PARTITA_CLUSTER_NAME", clusterName);
        env.put("PARTITA_DISCOVERY", "tcp");
        // Every address the cluster may ever use, including the one a joining node takes later.
        env.put("PARTITA_MEMBERS", places.stream().map(NodeProcess.Place::memberAddress)
                .collect(Collectors.joining(",")));
        env.put("PARTITA_CP_MEMBERS", "3");
        env.put("PARTITA_MIN_CLUSTER_SIZE", String.valueOf(size));
        // Durable as a node is by default, each cluster with its data under the build's directory: a restarted node
        // finds its own data, and no test finds another's.
        env.put("PARTITA_DATA_DIR", dataDir().toAbsolutePath().toString());
        // No cluster size and no split-brain protection setting: the nodes take both from the members they see, as a
        // node started as the README says does.
        env.putAll(timing);
        for (int i = 0; i < size; i++) {
            nodes.add(new NodeProcess(clusterName + "-n" + (i + 1), places.get(i), env));
        }
    }

    /** Where this cluster's nodes keep their data, one subdirectory each. */
    Path dataDir() {
        return Path.of("target", "it-data", clusterName);
    }

    private static List<NodeProcess.Place> loopback(int count) {
        List<NodeProcess.Place> places = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            places.add(NodeProcess.Place.loopback(Ports.free(), Ports.free()));
        }
        return places;
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

    /**
     * Starts the nodes one after another, each once the ones before it form a safe cluster, so that node 0 is the
     * oldest member (the master) and the last is the youngest.
     */
    ProcessCluster startInOrder() throws IOException {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close));
        for (int i = 0; i < nodes.size(); i++) {
            nodes.get(i).start();
            awaitSafe(i + 1, nodes.subList(0, i + 1), Duration.ofSeconds(120));
        }
        started = nodes.size();
        return this;
    }

    /** Gives node {@code index}'s process {@code env} on top of the cluster's (before it starts: {@link #NODE_ONLY}). */
    ProcessCluster withNodeEnv(int index, Map<String, String> env) {
        if (!NODE_ONLY.containsAll(env.keySet())) {
            throw new IllegalArgumentException("only " + NODE_ONLY + " may differ between nodes: " + env.keySet());
        }
        nodeEnv.put(index, Map.copyOf(env));
        NodeProcess node = nodes.get(index);
        nodes.set(index, new NodeProcess(node.name, node.place, envOf(index)));
        return this;
    }

    private Map<String, String> envOf(int index) {
        Map<String, String> merged = new HashMap<>(env);
        merged.putAll(nodeEnv.getOrDefault(index, Map.of()));
        return merged;
    }

    NodeProcess node(int index) {
        return nodes.get(index);
    }

    /** The nodes started so far, running or not. */
    int size() {
        return nodes.size();
    }

    List<URI> urls() {
        return nodes.stream().map(NodeProcess::url).toList();
    }

    /** The node that is the cluster's master, as a running node last logged the member list. */
    NodeProcess master() throws IOException {
        for (NodeProcess node : nodes) {
            if (node.alive()) {
                String address = node.masterMember();
                for (NodeProcess candidate : nodes) {
                    if (candidate.place.memberAddress().equals(address)) {
                        return candidate;
                    }
                }
            }
        }
        throw new IllegalStateException("no node has logged a member list naming one of " + nodes);
    }

    /** Restarts a stopped node on the same ports (a crashed host coming back). */
    NodeProcess restart(int index) throws IOException {
        NodeProcess old = nodes.get(index);
        old.destroy();
        NodeProcess again = new NodeProcess(old.name + "-r" + (++started), old.place, envOf(index));
        nodes.set(index, again);
        return again.start();
    }

    /** Starts one more node in the spare place (its member address already in everyone's PARTITA_MEMBERS). */
    NodeProcess join() throws IOException {
        if (nodes.size() == places.size()) {
            throw new IllegalStateException("no place left for another node");
        }
        NodeProcess node = new NodeProcess(clusterName + "-n" + (nodes.size() + 1), places.get(nodes.size()), env);
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

    /**
     * Waits until each running node is a CP member of a whole CP Subsystem: a crashed or departed CP member has been
     * removed and a node promoted in its place. Until then Raft groups run with a member missing, and stopping another
     * CP member gracefully hangs (see the README, "Fault tests across processes").
     */
    void awaitCpWhole() {
        List<NodeProcess> running = nodes.stream().filter(NodeProcess::alive).toList();
        Duration atMost = Duration.ofSeconds(90);
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(500))
                    .until(() -> running.stream().allMatch(NodeProcess::wholeCpMember));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no whole CP Subsystem of " + running.size() + " within " + atMost.toSeconds()
                    + " s: " + running.stream().map(NodeProcess::describe).collect(Collectors.joining("; ")), e);
        }
    }

    /** {@link NodeProcess#diagnosis} of every node, for a failure's message. */
    String diagnosis() {
        return nodes.stream().map(node -> node.diagnosis(40)).collect(Collectors.joining("\n"));
    }

    @Override
    public void close() {
        nodes.forEach(NodeProcess::destroy);
    }
}
