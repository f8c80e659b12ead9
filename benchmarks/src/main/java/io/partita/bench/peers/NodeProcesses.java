package io.partita.bench.peers;

import io.micronaut.json.JsonMapper;
import io.partita.bench.LocalCluster;
import io.micronaut.json.tree.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Partita nodes as users run them: {@code java -jar partita.jar}, one process each, configured only by environment
 * variables as {@code docker/compose.yaml} configures a cluster (TCP discovery on 127.0.0.1 with every member's
 * address, {@code PARTITA_CLUSTER_SIZE} and {@code PARTITA_MIN_CLUSTER_SIZE} the cluster's size, the CP Subsystem on 3
 * members when there are 3, unsafe mode on 1), under a cluster name of their own and on free ports, so they join no
 * other node. No JVM flag is given: a node runs as the jar ships. The one setting beyond compose's raises the
 * {@code POST /sql} caps, which the correctness check uses to read every account back; SQL is not on the
 * transaction path.
 *
 * <p>Each node's output goes to {@code <logs>/<cluster>-n<i>.log}. {@link #close} kills the processes (a shutdown hook
 * does too, if the tool is interrupted).
 */
final class NodeProcesses implements AutoCloseable {

    private static final Duration FORMATION_TIMEOUT = Duration.ofMinutes(3);

    private final List<Process> processes = new ArrayList<>();
    private final List<URI> urls = new ArrayList<>();
    private final Thread killer = new Thread(this::kill, "peers-node-killer");

    private NodeProcesses() {
    }

    static NodeProcesses start(int size, Path jar, Path logs) throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " not found: build it first (mvn -B -q package -DskipTests), or "
                    + "give --partita-jar");
        }
        Files.createDirectories(logs);
        String clusterName = "peers-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> memberPorts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            memberPorts.add(LocalCluster.freePort());
        }
        NodeProcesses nodes = new NodeProcesses();
        Runtime.getRuntime().addShutdownHook(nodes.killer);
        try {
            for (int i = 0; i < size; i++) {
                int httpPort = LocalCluster.freePort();
                ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString());
                Map<String, String> env = builder.environment();
                env.put("PARTITA_CLUSTER_NAME", clusterName);
                // Durable as a node is by default, each run with its data beside its logs.
                env.put("PARTITA_DATA_DIR", logs.resolve(clusterName + "-data").toAbsolutePath().toString());
                env.put("PARTITA_DISCOVERY", "tcp");
                env.put("PARTITA_MEMBERS", memberPorts.stream().map(port -> "127.0.0.1:" + port)
                        .collect(Collectors.joining(",")));
                env.put("PARTITA_CP_MEMBERS", size >= 3 ? "3" : "0");
                env.put("PARTITA_CLUSTER_SIZE", String.valueOf(size));
                env.put("PARTITA_MIN_CLUSTER_SIZE", String.valueOf(size));
                env.put("PARTITA_NETWORK_HOST", "127.0.0.1");
                env.put("PARTITA_NETWORK_PORT", String.valueOf(memberPorts.get(i)));
                env.put("MICRONAUT_SERVER_PORT", String.valueOf(httpPort));
                env.put("PARTITA_HTTP_URL", "http://127.0.0.1:" + httpPort);
                env.put("PARTITA_SQL_MAX_ROWS", "100000");
                env.put("PARTITA_SQL_TIMEOUT", "120s");
                builder.redirectErrorStream(true);
                builder.redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(clusterName + "-n" + (i + 1) + ".log").toFile()));
                nodes.processes.add(builder.start());
                nodes.urls.add(URI.create("http://127.0.0.1:" + httpPort));
            }
            nodes.awaitFormed(size, logs, clusterName);
            return nodes;
        } catch (IOException | InterruptedException | RuntimeException e) {
            nodes.close();
            throw e;
        }
    }

    List<URI> urls() {
        return urls;
    }

    List<Long> pids() {
        return processes.stream().map(Process::pid).toList();
    }

    /** Waits until every node answers {@code GET /cluster} with a safe cluster of {@code size} members. */
    private void awaitFormed(int size, Path logs, String clusterName) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        JsonMapper json = JsonMapper.createDefault();
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        for (int i = 0; i < size; i++) {
            while (true) {
                if (!processes.get(i).isAlive()) {
                    throw new IllegalStateException("Node " + (i + 1) + " exited; see " + logs.resolve(clusterName
                            + "-n" + (i + 1) + ".log"));
                }
                try {
                    HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(urls.get(i).resolve("/cluster"))
                            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
                    if (response.statusCode() == 200) {
                        JsonNode cluster = json.readValue(response.body(), JsonNode.class);
                        if (cluster.get("clusterSafe").getBooleanValue() && cluster.get("members").size() == size) {
                            break;
                        }
                    }
                } catch (IOException e) {
                    // Not listening yet.
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The " + size + " node(s) did not form a safe cluster within "
                            + FORMATION_TIMEOUT + "; logs in " + logs);
                }
                Thread.sleep(250);
            }
        }
    }

    private void kill() {
        for (Process process : processes) {
            process.destroyForcibly();
        }
        for (Process process : processes) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills the nodes: the measurement is over, and a graceful leave would only hand partitions around. */
    @Override
    public void close() {
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(killer);
        } catch (IllegalStateException e) {
            // Shutting down already: the hook runs anyway.
        }
    }
}
