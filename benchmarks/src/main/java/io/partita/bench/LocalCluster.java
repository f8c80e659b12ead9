package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Partita nodes started in this JVM, as the benchmarks measure them: each node is the app's own Micronaut context (so
 * its Hazelcast member is built by {@code HazelcastConfigs} from {@code partita.*} properties, and its services are
 * the beans the HTTP controllers use), joined by TCP on 127.0.0.1 under a cluster name of its own, on free ports.
 *
 * <p>What runs where: every member, its partition threads and its CP Subsystem share this JVM and its cores with
 * the benchmark's client threads, as nodes and a load generator sharing one host would. {@link #start} returns once
 * every member sees the whole cluster, the partition table is safe and, when Raft is configured, CP discovery has
 * completed on every member (the first lock would otherwise wait for it inside a measurement).
 */
public final class LocalCluster implements AutoCloseable {

    private static final Duration FORMATION_TIMEOUT = Duration.ofMinutes(3);

    private final List<ApplicationContext> contexts;
    private final List<EmbeddedServer> servers;
    private final Path dataDir;

    private LocalCluster(List<ApplicationContext> contexts, List<EmbeddedServer> servers, Path dataDir) {
        this.contexts = List.copyOf(contexts);
        this.servers = List.copyOf(servers);
        this.dataDir = dataDir;
    }

    /**
     * {@code size} nodes without HTTP servers: the grid and the services only.
     *
     * @param cpMembers {@code partita.cp.members}: 0 for unsafe mode, 3 or more for Raft
     * @param extra     more {@code partita.*} or Micronaut properties, on every node
     */
    public static LocalCluster start(int size, int cpMembers, Map<String, Object> extra) {
        return start(size, cpMembers, extra, false);
    }

    /** As {@link #start(int, int, Map)}, each node also serving the HTTP API on a free port. */
    static LocalCluster startWithHttp(int size, int cpMembers, Map<String, Object> extra) {
        return start(size, cpMembers, extra, true);
    }

    private static LocalCluster start(int size, int cpMembers, Map<String, Object> extra, boolean http) {
        String clusterName = "bench-" + UUID.randomUUID();
        List<Integer> memberPorts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            memberPorts.add(freePort());
        }
        String members = memberPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
        // Durable as a node is by default (partita.durability: flush, unless extra says otherwise), with its data in a
        // directory of the cluster's own, deleted when it closes.
        Path dataDir = temporaryDirectory(clusterName);
        List<ApplicationContext> contexts = new ArrayList<>();
        List<EmbeddedServer> servers = new ArrayList<>();
        try {
            for (int port : memberPorts) {
                Map<String, Object> properties = new HashMap<>();
                properties.put("partita.cluster-name", clusterName);
                properties.put("partita.discovery", "tcp");
                properties.put("partita.members", members);
                properties.put("partita.network.host", "127.0.0.1");
                properties.put("partita.network.port", port);
                properties.put("partita.cp.members", cpMembers);
                properties.put("partita.data-dir", dataDir.toString());
                // A trial's check counts every journal entry in the journal map, so the map keeps the whole retention
                // here, as in memory mode (with the journal on disk a node's map keeps only its last seconds).
                properties.put("partita.journal.memory-retention", "24h");
                properties.putAll(extra);
                if (http) {
                    properties.put("micronaut.server.port", freePort());
                    EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, properties);
                    servers.add(server);
                    contexts.add(server.getApplicationContext());
                } else {
                    contexts.add(ApplicationContext.run(properties));
                }
            }
            LocalCluster cluster = new LocalCluster(contexts, servers, dataDir);
            cluster.awaitFormed(cpMembers > 0);
            return cluster;
        } catch (RuntimeException e) {
            contexts.forEach(ApplicationContext::close);
            delete(dataDir);
            throw e;
        }
    }

    public int size() {
        return contexts.size();
    }

    public ApplicationContext context(int index) {
        return contexts.get(index);
    }

    public <T> T bean(int index, Class<T> type) {
        return contexts.get(index).getBean(type);
    }

    public HazelcastInstance member(int index) {
        return bean(index, HazelcastInstance.class);
    }

    /**
     * Waits until the journal writers have copied every entry recorded in an account's tail to the journal (sweeping
     * the tails as the oldest member would), as a trial's check does before it counts journal entries.
     */
    public void awaitJournaled() {
        Books.awaitJournaled(member(0));
    }

    /** The HTTP servers, empty unless started with {@link #startWithHttp}. */
    List<EmbeddedServer> servers() {
        return servers;
    }

    private void awaitFormed(boolean raft) {
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        for (int i = 0; i < size(); i++) {
            HazelcastInstance member = member(i);
            while (member.getCluster().getMembers().size() < size()
                    || !member.getPartitionService().isClusterSafe()
                    || raft && !member.getCPSubsystem().getCPSubsystemManagementService().isDiscoveryCompleted()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The cluster of " + size() + " did not form within "
                            + FORMATION_TIMEOUT);
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while the cluster formed", e);
        }
    }

    /**
     * Stops every node. The members are terminated rather than shut down gracefully: the measurement is over, and
     * handing partitions from one leaving member to the next would only add minutes to a run.
     */
    @Override
    public void close() {
        contexts.forEach(context -> context.getBean(HazelcastInstance.class).getLifecycleService().terminate());
        contexts.forEach(ApplicationContext::close);
        delete(dataDir);
    }

    private static Path temporaryDirectory(String name) {
        try {
            return Files.createTempDirectory(name + "-data-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // A leftover temporary directory is harmless.
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
