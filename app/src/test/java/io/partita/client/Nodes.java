package io.partita.client;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * Partita nodes for the client's ITs: {@code java -jar partita.jar} processes (the jar the app module built), TCP
 * discovery on loopback under a cluster name and ports of their own, output in {@code target/it-logs}. The test reads
 * the nodes with the JDK's client, not with the client under test. A cluster may start with some of its nodes and
 * {@link #start} the others later, and a {@link #kill}ed node can be started again on its own ports.
 * <b>Threads:</b> used from the test's thread only.
 */
final class Nodes implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** Settings for a kill test: a killed member is noticed within seconds, and a call to it waits at most 3 s. */
    static final Map<String, String> QUICK_TO_NOTICE_A_KILL =
            Map.of("PARTITA_HEARTBEAT_TIMEOUT", "5s", "PARTITA_REQUEST_TIMEOUT", "3s");

    private final String clusterName = "client-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Integer> httpPorts = new ArrayList<>();
    private final List<Integer> memberPorts = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private final String authorization;

    /** {@code env}: settings on top of the cluster's own (credentials, timeouts). */
    Nodes(int size, Map<String, String> extra) throws IOException {
        this(size, size, extra);
    }

    /**
     * A cluster of {@code size} nodes (their ports, {@code PARTITA_MEMBERS} and {@code PARTITA_CLUSTER_SIZE}) of which
     * the first {@code running} are started now, the others by {@link #start} later.
     */
    Nodes(int size, int running, Map<String, String> extra) throws IOException {
        for (int i = 0; i < size; i++) {
            httpPorts.add(freePort());
            memberPorts.add(freePort());
        }
        env.put("PARTITA_CLUSTER_NAME", clusterName);
        env.put("PARTITA_DISCOVERY", "tcp");
        env.put("PARTITA_MEMBERS", memberPorts.stream().map(port -> "127.0.0.1:" + port)
                .collect(Collectors.joining(",")));
        env.put("PARTITA_CLUSTER_SIZE", String.valueOf(size));
        env.put("PARTITA_CP_MEMBERS", "0");
        env.put("PARTITA_NETWORK_HOST", "127.0.0.1");
        env.putAll(extra);
        String admin = extra.get("PARTITA_SECURITY_ADMIN_PASSWORD");
        authorization = admin == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                ("admin:" + admin).getBytes(StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(this::close));
        for (int i = 0; i < size; i++) {
            processes.add(null);
        }
        for (int i = 0; i < running; i++) {
            start(i);
        }
        awaitSafe(running);
    }

    /** Starts node {@code index} (again, after a {@link #kill}: the same ports, so the same member address). */
    void start(int index) throws IOException {
        if (running(index)) {
            throw new IllegalStateException("node " + index + " is running");
        }
        Path jar = Path.of(System.getProperty("partita.jar", "target/partita.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build the node first (mvn -B -q package -DskipTests)");
        }
        Path logs = Path.of(System.getProperty("partita.it-logs", "target/it-logs"));
        Files.createDirectories(logs);
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dhazelcast.phone.home.enabled=false",
                "-jar", jar.toString());
        builder.environment().putAll(env);
        builder.environment().put("MICRONAUT_SERVER_PORT", String.valueOf(httpPorts.get(index)));
        builder.environment().put("PARTITA_NETWORK_PORT", String.valueOf(memberPorts.get(index)));
        builder.environment().put("PARTITA_HTTP_URL", url(index));
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(
                logs.resolve(clusterName + "-n" + (index + 1) + ".log").toFile()));
        processes.set(index, builder.start());
    }

    boolean running(int index) {
        return processes.get(index) != null && processes.get(index).isAlive();
    }

    String url(int index) {
        return "http://127.0.0.1:" + httpPorts.get(index);
    }

    String[] urls() {
        return httpPorts.stream().map(port -> "http://127.0.0.1:" + port).toArray(String[]::new);
    }

    /** {@code kill -9}: the process dies at once, with no graceful leave. */
    void kill(int index) throws InterruptedException {
        Process process = processes.get(index);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits until every running node answers and sees a safe cluster of {@code members}. */
    void awaitSafe(int members) {
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(300)).until(() -> {
            for (int i = 0; i < processes.size(); i++) {
                if (processes.get(i) == null || !processes.get(i).isAlive()) {
                    continue;
                }
                String cluster = get(i, "/cluster");
                if (cluster == null || !cluster.contains("\"clusterSafe\":true")
                        || count(cluster, "\"httpUrl\"") != members) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * The index of a running node that is not the cluster's oldest member: of two, the one whose crash leaves the
     * other serving (the survivor of an even split is the half with the oldest member).
     */
    int youngest() {
        String cluster = null;
        for (int i = 0; i < processes.size() && cluster == null; i++) {
            cluster = running(i) ? get(i, "/cluster") : null;
        }
        if (cluster == null) {
            throw new IllegalStateException("no running node answers /cluster");
        }
        for (int i = 0; i < processes.size(); i++) {
            String member = "\"httpUrl\":\"" + url(i) + "\",\"local\":";
            int at = cluster.indexOf(member);
            if (at >= 0 && running(i)
                    && cluster.startsWith("\"oldest\":false", cluster.indexOf(',', at + member.length()) + 1)) {
                return i;
            }
        }
        throw new IllegalStateException("no running node but the oldest in " + cluster);
    }

    /** The body of a 200 answer to a GET, or null. */
    String get(int index, String path) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(index) + path))
                    .timeout(Duration.ofSeconds(20));
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * How many single transactions ({@code POST /accounts/{id}/transactions}) this node has answered, every outcome,
     * from its {@code partita_transactions_total} meter.
     */
    long transactionsServed(int index) {
        return meterSum(index, "partita_transactions_total{");
    }

    /** How many batches ({@code POST /transactions/batch}) this node has answered, from {@code partita_batches_total}. */
    long batchesServed(int index) {
        return meterSum(index, "partita_batches_total");
    }

    /** The sum of the samples of one meter (every label) on this node's {@code /prometheus}. */
    private long meterSum(int index, String sample) {
        String metrics = get(index, "/prometheus");
        if (metrics == null) {
            throw new IllegalStateException("node " + index + " did not serve /prometheus");
        }
        long total = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(sample)) {
                total += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process process : processes) {
            if (process != null) {
                process.destroyForcibly();
            }
        }
        for (Process process : processes) {
            try {
                if (process != null) {
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
