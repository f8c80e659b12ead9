package io.partita.load;

import io.partita.load.LoadRecord.Answer;
import io.partita.load.LoadRecord.Op;
import io.partita.load.LoadRecord.Outcome;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
        Client.Response response = null;
        String error = null;
        try {
            response = workload.client().once(node.url(), workload.path(op), Workload.body(op), hang);
        } catch (IOException e) {
            error = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = e.toString();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        // A 5xx, like no answer, leaves the outcome to the journal; the rest is judged as the load tool judges it.
        Answer answer = response == null || response.status() >= 500 ? Answer.unknown(error == null
                ? response.status() + " " + response.body() : error) : Workload.answer(op, response);
        workload.record(op, answer);
        return keep(new Probe(Kind.WRITE, node.name, account, response == null ? 0 : response.status(),
                response != null && response.retryAfter() != null, millis,
                answer.outcome() == Outcome.APPLIED || answer.outcome() == Outcome.REJECTED,
                error != null ? error : response.body()));
    }

    Probe read(NodeProcess node, String account) {
        long start = System.nanoTime();
        try {
            Client.Response response = workload.client().once(node.url(), "/accounts/" + account, null, hang);
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
