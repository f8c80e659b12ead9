package io.partita.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP to a set of nodes, with the retry a careful client does: an operation is re-sent with the same body (so the
 * same id) to the next node on a connection error, a timeout, a 5xx or a 429, until a definite answer or the give-up
 * deadline.
 * <b>Threads:</b> called from the workload's threads at once; the JDK client is thread-safe and the counters are
 * atomic.
 */
public final class Client {

    static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /**
     * One HTTP answer.
     *
     * @param replayed   whether it carried {@code Idempotent-Replayed: true} (every replay of a txId does)
     * @param retryAfter the {@code Retry-After} header, or null
     */
    record Response(int status, String body, boolean replayed, String retryAfter) {
        static Response of(HttpResponse<String> response) {
            return new Response(response.statusCode(), response.body(),
                    response.headers().firstValue(REPLAYED_HEADER).map("true"::equalsIgnoreCase).orElse(false),
                    response.headers().firstValue("Retry-After").orElse(null));
        }
    }

    private final List<URI> targets;
    private final Duration attemptTimeout;
    private final Duration giveUp;
    private final HttpClient http;
    /**
     * The Authorization header for a cluster with credentials ({@code PARTITA_LOAD_USER} and
     * {@code PARTITA_LOAD_PASSWORD}: the admin, since the tool opens accounts and reads them back over SQL), or null.
     */
    private static final String AUTHORIZATION = authorization(System.getenv("PARTITA_LOAD_USER"),
            System.getenv("PARTITA_LOAD_PASSWORD"));
    final AtomicLong retries = new AtomicLong();
    final AtomicLong errors = new AtomicLong();

    Client(List<URI> targets, Duration attemptTimeout, Duration giveUp) {
        this.targets = targets;
        this.attemptTimeout = attemptTimeout;
        this.giveUp = giveUp;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(attemptTimeout).build();
    }

    /**
     * Sizes the JDK's common pool to at least 2 threads, unless the JVM was told otherwise; for a process whose work
     * is an HTTP client, called first thing. The JDK client completes its exchanges with async callbacks on the common
     * pool, which on a 2-core machine has one thread and so runs each callback on a new thread: the client, not the
     * server, would be measured. The size is read once, when the pool is first used; later calls change nothing.
     * (Nodes do not depend on it: their grid callbacks run on their own pool, see {@code Continuations}.)
     */
    public static void sizeCommonPool() {
        if (System.getProperty(COMMON_POOL_PARALLELISM) == null) {
            System.setProperty(COMMON_POOL_PARALLELISM,
                    String.valueOf(Math.max(2, Runtime.getRuntime().availableProcessors())));
        }
    }

    /** The definite answer, or null when none came before the give-up deadline. */
    Response post(String path, String body) {
        return call(path, body, null);
    }

    Response get(String path) {
        return call(path, null, null);
    }

    /** As {@link #post(String, String)}, trying {@code first} before the other targets (null: a random one). */
    Response post(String path, String body, URI first) {
        return call(path, body, first);
    }

    /**
     * One attempt at one node, no retry: what a fault test measures. {@code body} null sends a GET.
     *
     * @throws IOException on a connection error or when no answer came within {@code timeout}
     */
    Response once(URI target, String path, String body, Duration timeout) throws IOException, InterruptedException {
        return Response.of(http.send(request(target, path, body, timeout), HttpResponse.BodyHandlers.ofString()));
    }

    /** {@code body} null sends a GET. */
    private Response call(String path, String body, URI first) {
        long deadline = System.nanoTime() + giveUp.toNanos();
        int next = first == null ? ThreadLocalRandom.current().nextInt(targets.size()) : Math.max(0,
                targets.indexOf(first));
        long backoffMillis = 20;
        while (true) {
            URI target = targets.get(Math.floorMod(next++, targets.size()));
            try {
                HttpResponse<String> response = http.send(request(target, path, body, attemptTimeout),
                        HttpResponse.BodyHandlers.ofString());
                if (definite(response.statusCode())) {
                    return Response.of(response);
                }
                errors.incrementAndGet();
            } catch (IOException e) {
                errors.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            if (System.nanoTime() + backoffMillis * 1_000_000 > deadline) {
                return null;
            }
            retries.incrementAndGet();
            try {
                Thread.sleep(backoffMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            backoffMillis = Math.min(backoffMillis * 2, 500);
        }
    }

    static String authorization(String user, String password) {
        if (user == null || user.isBlank()) {
            return null;
        }
        String pair = user + ":" + (password == null ? "" : password);
        return "Basic " + java.util.Base64.getEncoder().encodeToString(
                pair.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static HttpRequest request(URI target, String path, String body, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + path))
                .timeout(timeout)
                .header("Accept", "application/json");
        if (AUTHORIZATION != null) {
            request.header("Authorization", AUTHORIZATION);
        }
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        return request.build();
    }

    /** 2xx and 4xx answers are the node's decision; 5xx, 408 and 429 say "try again". */
    private static boolean definite(int status) {
        return status < 500 && status != 408 && status != 429;
    }
}
