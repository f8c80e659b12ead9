package io.partita.load;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One Partita node as users run it: {@code java -jar target/partita.jar} in its own process, configured only by
 * environment variables ({@link ProcessCluster} sets them as compose does), its output in
 * {@code target/it-logs/<name>.log}. Signals go through the {@code kill} command to the process's pid.
 */
final class NodeProcess {

    /** The names of the threads that do a node's work ({@link #workingThreads}). */
    private static final Pattern WORKERS = Pattern.compile(
            "operation\\.thread|partita-|eventLoop|blocking-executor|response-|cached\\.thread");
    /** Where a worker waits for work: such a thread is idle. */
    private static final List<String> IDLE = List.of("OperationQueueImpl.take", "EPoll.wait", "epollWait",
            "ForkJoinPool.awaitWork", "LinkedBlockingQueue.take", "SynchronousQueue", "MPSCQueue.take",
            "ScheduledThreadPoolExecutor$DelayedWorkQueue.take", "ThreadPoolExecutor.getTask");
    private static final Pattern MEMBER_LINE = Pattern.compile("Member \\[([^]]+)]:(\\d+) - ");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * Where a node runs: the address and port the test reaches its HTTP API on, the address and port its member binds
     * to, and the command prefix that launches it (empty on this host; {@code ip netns exec <ns>} in a namespace).
     */
    record Place(String httpHost, int httpPort, String memberHost, int memberPort, List<String> launcher) {

        /** On loopback, with its own ports. */
        static Place loopback(int httpPort, int memberPort) {
            return new Place("127.0.0.1", httpPort, "127.0.0.1", memberPort, List.of());
        }

        String memberAddress() {
            return memberHost + ":" + memberPort;
        }
    }

    /** The JVM options of a test's node: a heap several can share on one machine, quick to start. */
    static final List<String> TEST_JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    final String name;
    final Place place;
    private final Map<String, String> env;
    private final List<String> jvm;
    private Process process;
    /** What the last GET answered (status and body, or why there was none), for a failure message. */
    private volatile String lastAnswer = "not asked yet";

    NodeProcess(String name, Place place, Map<String, String> env) {
        this(name, place, env, TEST_JVM);
    }

    NodeProcess(String name, Place place, Map<String, String> env, List<String> jvm) {
        this.name = name;
        this.place = place;
        this.env = env;
        this.jvm = jvm;
    }

    URI url() {
        return URI.create("http://" + place.httpHost() + ":" + place.httpPort());
    }

    /** This node's output: Micronaut's and Hazelcast's log lines. */
    Path log() {
        return Path.of(System.getProperty("partita.it-logs", "target/it-logs")).resolve(name + ".log");
    }

    NodeProcess start() throws IOException {
        Files.createDirectories(log().getParent());
        String jar = System.getProperty("partita.jar", "target/partita.jar");
        List<String> command = new ArrayList<>(place.launcher());
        command.add(javaBinary());
        command.addAll(jvm);
        // An operation that holds an operation thread for more than 10 s is logged with its stack.
        command.addAll(List.of("-Dhazelcast.phone.home.enabled=false",
                "-Dhazelcast.slow.operation.detector.stacktrace.logging.enabled=true", "-jar", jar));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        builder.environment().put("MICRONAUT_SERVER_PORT", String.valueOf(place.httpPort()));
        builder.environment().put("PARTITA_NETWORK_HOST", place.memberHost());
        builder.environment().put("PARTITA_NETWORK_PORT", String.valueOf(place.memberPort()));
        builder.environment().put("PARTITA_HTTP_URL", url().toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
        process = builder.start();
        return this;
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Waits for the process to end (after SIGTERM: its graceful leave); true when it did within the time. */
    boolean awaitExit(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    void destroy() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The body of a GET, or null when the node does not answer 200 in time. The time allowed is above the node's own
     * bounds for a cluster view (a member that stopped answering is asked for up to several seconds before the others
     * remove it): it tells a hang from an answer, it does not measure speed.
     */
    String get(String path) {
        HttpResponse<String> response = send("GET", path, null);
        return response != null && response.statusCode() == 200 ? response.body() : null;
    }

    /** One request with a JSON body (or none), or null when the node does not answer in time; as {@link #get}. */
    HttpResponse<String> send(String method, String path, String body) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url() + path))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(20))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            lastAnswer = method + " " + path + ": " + response.statusCode() + " " + response.body();
            return response;
        } catch (IOException e) {
            lastAnswer = method + " " + path + ": " + e;
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Whether this node sees a safe cluster of the given size. */
    @SuppressWarnings("unchecked")
    boolean safeWith(int members) {
        String body = get("/cluster");
        if (body == null) {
            return false;
        }
        Map<String, Object> cluster = Json.object(body);
        return Boolean.TRUE.equals(cluster.get("clusterSafe"))
                && ((List<Object>) cluster.get("members")).size() == members;
    }

    /**
     * The member address ({@code host:port}) of the cluster's master as this node last logged its member list, or null
     * before it has. Hazelcast lists members oldest first, and the oldest is the master; {@code /cluster} sorts them by
     * address instead.
     */
    String masterMember() throws IOException {
        List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("Members {size:") && i + 1 < lines.size()) {
                Matcher member = MEMBER_LINE.matcher(lines.get(i + 1));
                return member.find() ? member.group(1) + ":" + member.group(2) : null;
            }
        }
        return null;
    }

    /** How many lines of this node's log contain {@code text}. */
    long logLinesContaining(String text) throws IOException {
        try (var lines = Files.lines(log(), StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains(text)).count();
        }
    }

    /** The last line of this node's log that {@code wanted} accepts, or null. */
    String lastLogLine(Predicate<String> wanted) throws IOException {
        try (var lines = Files.lines(log(), StandardCharsets.UTF_8)) {
            return lines.filter(wanted).reduce((first, second) -> second).orElse(null);
        }
    }

    /** This node's member UUID as its {@code /cluster} shows it; a member that rejoins after removal has a new one. */
    @SuppressWarnings("unchecked")
    String memberUuid() {
        String body = get("/cluster");
        if (body == null) {
            throw new IllegalStateException(describe());
        }
        for (Object member : (List<Object>) Json.object(body).get("members")) {
            Map<String, Object> view = (Map<String, Object>) member;
            if (Boolean.TRUE.equals(view.get("local"))) {
                return (String) view.get("uuid");
            }
        }
        throw new IllegalStateException("no local member in " + body);
    }

    /**
     * Whether this node is a CP member and its CP Subsystem answers with all its configured members. After a CP member
     * crashes it still counts until partita.cp.missing-member-removal removes it; the node promoted in its place (a
     * restarted one) reports itself a CP member only once that has happened.
     */
    @SuppressWarnings("unchecked")
    boolean wholeCpMember() {
        String body = get("/cluster");
        if (body == null) {
            return false;
        }
        Map<String, Object> cp = (Map<String, Object>) Json.object(body).get("cp");
        return cp != null && Boolean.TRUE.equals(cp.get("local")) && Boolean.TRUE.equals(cp.get("available"))
                && Objects.equals(cp.get("members"), cp.get("configured"));
    }

    /**
     * The stacks (top 25 frames) of the threads that do a node's work and are not waiting for any: Hazelcast's
     * operation threads, Partita's own, the HTTP event loops and blocking pool. From {@code jcmd Thread.print}: where a
     * node that stopped answering stands.
     */
    String workingThreads() {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            Process dump = new ProcessBuilder(jcmd, String.valueOf(pid()), "Thread.print").redirectErrorStream(true)
                    .start();
            String text = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            dump.waitFor(30, TimeUnit.SECONDS);
            return Arrays.stream(text.split("\n\n"))
                    .filter(block -> WORKERS.matcher(block.lines().findFirst().orElse("")).find())
                    .filter(block -> IDLE.stream().noneMatch(block::contains))
                    .map(block -> block.lines().limit(25).map(line -> "    " + line)
                            .collect(Collectors.joining("\n")))
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "    no thread dump: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "    no thread dump: interrupted";
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString() + (File.separatorChar == '\\'
                ? ".exe" : "");
    }

    /** This node as a failure message shows it: alive or not, and what it last answered. */
    String describe() {
        return this + (alive() ? "" : " EXITED") + " last answer: " + lastAnswer;
    }

    /**
     * For a failure's message: {@link #describe}, what the node answers now on {@code /health} and {@code /cluster},
     * and the last {@code lines} lines of its log.
     */
    String diagnosis(int lines) {
        StringBuilder out = new StringBuilder(describe());
        for (String path : alive() ? List.of("/health", "/cluster") : List.<String>of()) {
            HttpResponse<String> now = send("GET", path, null);
            out.append("\n  now: GET ").append(path).append(": ")
                    .append(now == null ? "no answer" : now.statusCode() + " " + now.body());
        }
        if (alive()) {
            out.append("\n  working threads:\n").append(workingThreads());
        }
        try {
            List<String> all = Files.readAllLines(log(), StandardCharsets.UTF_8);
            out.append("\n  last ").append(lines).append(" log lines:");
            all.subList(Math.max(0, all.size() - lines), all.size()).forEach(line -> out.append("\n    ").append(line));
        } catch (IOException e) {
            out.append("\n  no log: ").append(e);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return name + "(http " + place.httpHost() + ":" + place.httpPort() + ", member " + place.memberAddress() + ")";
    }
}
