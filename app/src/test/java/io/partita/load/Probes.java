package io.partita.load;

import io.partita.load.LoadRecord.Answer;
import io.partita.load.LoadRecord.Op;
import io.partita.load.LoadRecord.Outcome;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * Single requests a fault test sends to chosen nodes, outside the load tool's retries, to see what one attempt at one
 * node answers and how long it takes: a write on an account (recorded in the workload's run, so the final check
 * accounts for it) or a read of it.
 *
 * <p>Threads: {@link #round} sends its requests at once from a pool of its own and waits for all of them; the probes
 * seen so far sit in a concurrent queue.
 */
final class Probes implements AutoCloseable {

    enum Kind { WRITE, READ }

    /**
     * One request and its answer.
     *
     * @param status  the HTTP status, or 0 when none came within the client's limit (a hang)
     * @param decided for a write, whether it got a definite answer (200 or 422)
     */
    record Probe(Kind kind, String node, String account, int status, boolean retryAfter, long millis,
                 boolean decided, String detail) {

        /** What a node that cannot reach the data may answer: the result, or 503 with Retry-After. */
        boolean allowed() {
            boolean answer = kind == Kind.WRITE ? status == 200 || status == 422 : status == 200;
            return answer || status == 503 && retryAfter;
        }

        @Override
        public String toString() {
            return kind + " " + account + " at " + node + ": " + (status == 0 ? "no answer" : status
                    + (retryAfter ? " Retry-After" : "")) + " in " + millis + " ms" + (allowed() ? "" : " " + detail);
        }
    }

    private final Workload workload;
    private final Duration hang;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ConcurrentLinkedQueue<Probe> seen = new ConcurrentLinkedQueue<>();

    /** {@code hang}: how long one request may take before it counts as hanging and is given up. */
    Probes(Workload workload, Duration hang) {
        this.workload = workload;
        this.hang = hang;
    }

    /** Sends, at once, a write and a read of each account to each node; returns when all have answered. */
    List<Probe> round(List<NodeProcess> nodes, List<String> accounts) {
        List<CompletableFuture<Probe>> sent = new ArrayList<>();
        for (NodeProcess node : nodes) {
            for (String account : accounts) {
                sent.add(CompletableFuture.supplyAsync(() -> write(node, account), pool));
                sent.add(CompletableFuture.supplyAsync(() -> read(node, account), pool));
            }
        }
        return sent.stream().map(CompletableFuture::join).toList();
    }

    /** A locked- or partitioned-mode (the run's mode) debit or credit of the account, recorded in the run. */
    Probe write(NodeProcess node, String account) {
        Op op = workload.randomOp(List.of(account));
        long start = System.nanoTime();
        Response response = null;
        String error = null;
        try {
            response = once(node.url(), path(op), body(op));
        } catch (IOException e) {
            error = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = e.toString();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        // A 5xx, like no answer, leaves the outcome to the journal; the rest is judged as the load tool judges it.
        Answer answer = response == null || response.status() >= 500 ? Answer.unknown(error == null
                ? response.status() + " " + response.body() : error) : answer(op, response);
        workload.record(op, answer);
        return keep(new Probe(Kind.WRITE, node.name, account, response == null ? 0 : response.status(),
                response != null && response.retryAfter() != null, millis,
                answer.outcome() == Outcome.APPLIED || answer.outcome() == Outcome.REJECTED,
                error != null ? error : response.body()));
    }

    Probe read(NodeProcess node, String account) {
        long start = System.nanoTime();
        try {
            Response response = once(node.url(), "/accounts/" + account, null);
            return keep(new Probe(Kind.READ, node.name, account, response.status(), response.retryAfter() != null,
                    (System.nanoTime() - start) / 1_000_000, false, response.body()));
        } catch (IOException e) {
            return keep(new Probe(Kind.READ, node.name, account, 0, false, (System.nanoTime() - start) / 1_000_000,
                    false, e.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One HTTP answer: the status, the body and the {@code Retry-After} header (or null). */
    record Response(int status, String body, String retryAfter) {
    }

    /**
     * One attempt at one node, no retry. {@code body} null sends a GET.
     *
     * @throws IOException on a connection error or when no answer came within {@link #hang}
     */
    private Response once(URI target, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + path)).timeout(hang)
                .header("Accept", "application/json");
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Response(response.statusCode(), response.body(),
                response.headers().firstValue("Retry-After").orElse(null));
    }

    /** The operation's path, with the run's {@code ?mode=}. */
    private String path(Op op) {
        String mode = "?mode=" + workload.mode();
        return op.kind() == LoadRecord.Kind.TRANSFER ? "/transfers" + mode
                : "/accounts/" + op.account() + "/transactions" + mode;
    }

    private static String body(Op op) {
        if (op.kind() == LoadRecord.Kind.TRANSFER) {
            return "{\"txId\":" + Json.quote(op.txId()) + ",\"from\":" + Json.quote(op.account()) + ",\"to\":"
                    + Json.quote(op.to()) + ",\"amount\":" + op.amount() + "}";
        }
        return "{\"txId\":" + Json.quote(op.txId()) + ",\"type\":\"" + op.kind() + "\",\"amount\":" + op.amount()
                + "}";
    }

    /**
     * What a probe's answer below 500 means for the check, as the load tool judges its own: 200 and 422 decide, with
     * the balances the body reports; any other status is a broken contract (UNEXPECTED).
     */
    private static Answer answer(Op op, Response response) {
        if (response.status() != 200 && response.status() != 422) {
            return Answer.unexpected(response.status(), response.body());
        }
        Map<String, Object> body = Json.object(response.body());
        boolean transfer = op.kind() == LoadRecord.Kind.TRANSFER;
        return new Answer(response.status() == 200 ? Outcome.APPLIED : Outcome.REJECTED, response.status(),
                number(body.get(transfer ? "fromBalance" : "balance")),
                transfer ? number(body.get("toBalance")) : null);
    }

    private static Long number(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    private Probe keep(Probe probe) {
        seen.add(probe);
        return probe;
    }

    List<Probe> seen() {
        return List.copyOf(seen);
    }

    /** Counts by kind and status, and the slowest, for the test's output. */
    static String summary(List<Probe> probes) {
        String counts = probes.stream().collect(Collectors.groupingBy(p -> p.kind() + " " + p.status(),
                TreeMap::new, Collectors.counting())).toString();
        long max = probes.stream().mapToLong(Probe::millis).max().orElse(0);
        List<Long> sorted = probes.stream().map(Probe::millis).sorted(Comparator.naturalOrder()).toList();
        long p99 = sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99)));
        return probes.size() + " probes " + counts + ", p99 " + p99 + " ms, max " + max + " ms";
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
