package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.runtime.server.EmbeddedServer;
import io.partita.account.Account;
import io.partita.account.AccountService;
import io.partita.account.ApplyTransaction;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.cluster.Maps;
import io.partita.load.Client;
import org.HdrHistogram.Recorder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How far is HTTP from the grid, and the grid from the hardware? One run measures, on 1 and on 3 nodes started in this
 * JVM (TCP on 127.0.0.1), credits of 1 on random accounts through:
 * <ol>
 *   <li>{@code grid-ep}: the entry processor alone through {@code submitToKey}, a window of 256 in flight;</li>
 *   <li>{@code grid-path}: {@code AccountService.apply} (entry processor, then the journal write), same window:
 *       the in-process limit of the path HTTP calls take;</li>
 *   <li>{@code http-single}: {@code POST /accounts/{id}/transactions}, a closed loop of N clients;</li>
 *   <li>{@code http-batch}: {@code POST /transactions/batch} of 1,000 items, 4 in flight;</li>
 *   <li>{@code http-noop}: a no-op endpoint of the same shape on the same servers, the framework's ceiling.</li>
 * </ol>
 * Each phase warms up, then counts acknowledged credits; afterwards the sum of all balances must equal the opening
 * sum plus every acknowledged credit, or the run fails instead of reporting.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.partita.bench.Throughput [seconds] [nodes...]}, e.g.
 * {@code ... Throughput 10 1 3}. The client shares the machine with the nodes, as it would on one host.
 */
public final class Throughput {

    private static final int ACCOUNTS = 10_000;
    private static final int WINDOW = 256;
    private static final int BATCH = 1_000;
    private static final int[] CONCURRENCY = {16, 64};

    private final int seconds;
    private final List<String> rows = new ArrayList<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong txCounter = new AtomicLong();

    private Throughput(int seconds) {
        this.seconds = seconds;
    }

    public static void main(String[] args) throws Exception {
        // The in-process HTTP client needs it; the nodes in this JVM do not use the common pool.
        Client.sizeCommonPool();
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1, 3);
        }
        Throughput run = new Throughput(seconds);
        for (int size : sizes) {
            run.measure(size);
        }
        System.out.println();
        System.out.printf("cores %d, heap %d MiB, common pool %d, %d s per phase after %d s warm-up%n",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                java.util.concurrent.ForkJoinPool.getCommonPoolParallelism(), seconds, warmUp(seconds));
        System.out.println("| nodes | phase | concurrency | ops/s | p50 ms | p99 ms | / grid-path | / http-noop |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        run.rows.forEach(System.out::println);
        System.exit(0);
    }

    private static int warmUp(int seconds) {
        return Math.max(2, seconds / 3);
    }

    private void measure(int size) throws Exception {
        try (LocalCluster cluster = LocalCluster.startWithHttp(size, 0, Map.of("partita.max-in-flight", 100_000))) {
            List<EmbeddedServer> nodes = cluster.servers();
            AccountService accounts = cluster.bean(0, AccountService.class);
            HazelcastInstance member = cluster.member(0);
            openAccounts(accounts);
            long openingSum = sum(member);
            acknowledged.set(0);

            Result ep = grid(id -> Maps.accounts(member).submitToKey(id, new ApplyTransaction(credit())));
            Result path = grid(id -> accounts.apply(id, credit(), null));
            Map<Integer, Result> noop = new HashMap<>();
            Map<Integer, Result> single = new HashMap<>();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (int concurrency : CONCURRENCY) {
                noop.put(concurrency, http(http, nodes, concurrency, "/bench/noop/%s/transactions", false));
                single.put(concurrency, http(http, nodes, concurrency, "/accounts/%s/transactions", true));
            }
            Result batch = batches(http, nodes, 4);

            long sumNow = sum(member);
            if (sumNow != openingSum + acknowledged.get()) {
                throw new IllegalStateException("Lost or doubled credits: opening " + openingSum + " + acknowledged "
                        + acknowledged.get() + " != " + sumNow);
            }
            row(size, "grid-ep", WINDOW, ep, path, null);
            row(size, "grid-path", WINDOW, path, path, null);
            for (int concurrency : CONCURRENCY) {
                row(size, "http-noop", concurrency, noop.get(concurrency), path, noop.get(concurrency));
                row(size, "http-single", concurrency, single.get(concurrency), path, noop.get(concurrency));
            }
            row(size, "http-batch-" + BATCH, 4, batch, path, noop.get(CONCURRENCY[CONCURRENCY.length - 1]));
            System.out.printf("%d node(s): checked, %d credits acknowledged, sum of balances exact%n", size,
                    acknowledged.get());
        }
    }

    private void row(int nodes, String phase, int concurrency, Result result, Result grid, Result noop) {
        rows.add(String.format(Locale.ROOT, "| %d | %s | %d | %,.0f | %.2f | %.2f | %.2f | %s |", nodes, phase,
                concurrency, result.opsPerSecond, result.p50, result.p99, result.opsPerSecond / grid.opsPerSecond,
                noop == null ? "" : String.format(Locale.ROOT, "%.2f", result.opsPerSecond / noop.opsPerSecond)));
    }

    record Result(double opsPerSecond, double p50, double p99) {
    }

    private TxRequest credit() {
        return TxRequest.of("c-" + txCounter.incrementAndGet(), TxType.CREDIT, 1, System.currentTimeMillis());
    }

    private static String randomAccount() {
        return "acc-" + java.util.concurrent.ThreadLocalRandom.current().nextInt(ACCOUNTS);
    }

    /** A window of asynchronous grid calls kept full from one thread per slot's completion. */
    private Result grid(Function<String, CompletionStage<TxOutcome>> call) throws InterruptedException {
        return closedLoop(WINDOW, (recorder, counting) -> call.apply(randomAccount()).thenApply(outcome -> {
            if (outcome.kind() != TxOutcome.Kind.RECORDED || outcome.entry().status() != TxStatus.APPLIED) {
                throw new IllegalStateException("Unexpected " + outcome);
            }
            acknowledged.incrementAndGet();
            return 1;
        }));
    }

    private Result http(HttpClient http, List<EmbeddedServer> nodes, int concurrency, String path, boolean counts)
            throws InterruptedException {
        AtomicLong next = new AtomicLong();
        return closedLoop(concurrency, (recorder, counting) -> {
            EmbeddedServer node = nodes.get((int) (next.incrementAndGet() % nodes.size()));
            String txId = "h-" + txCounter.incrementAndGet();
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create(node.getURL() + String.format(path, randomAccount())))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"txId\":\"" + txId + "\",\"type\":\"CREDIT\",\"amount\":1}"))
                    .build();
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
                if (response.statusCode() != 200) {
                    throw new IllegalStateException(response.statusCode() + " " + response.body());
                }
                if (counts) {
                    acknowledged.incrementAndGet();
                }
                return 1;
            });
        });
    }

    private Result batches(HttpClient http, List<EmbeddedServer> nodes, int concurrency) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        return closedLoop(concurrency, (recorder, counting) -> {
            EmbeddedServer node = nodes.get((int) (next.incrementAndGet() % nodes.size()));
            String body = java.util.stream.IntStream.range(0, BATCH)
                    .mapToObj(i -> "{\"txId\":\"b-" + txCounter.incrementAndGet() + "\",\"accountId\":\""
                            + randomAccount() + "\",\"type\":\"CREDIT\",\"amount\":1}")
                    .collect(Collectors.joining(",", "[", "]"));
            HttpRequest request = HttpRequest.newBuilder(URI.create(node.getURL() + "/transactions/batch"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
                if (response.statusCode() != 200) {
                    throw new IllegalStateException(response.statusCode() + " " + response.body());
                }
                int applied = count(response.body(), "\"APPLIED\"");
                if (applied != BATCH) {
                    throw new IllegalStateException("Batch applied " + applied + " of " + BATCH);
                }
                acknowledged.addAndGet(applied);
                return applied;
            });
        });
    }

    private static int count(String text, String token) {
        int count = 0;
        for (int at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length())) {
            count++;
        }
        return count;
    }

    interface Call {
        CompletionStage<Integer> start(Recorder recorder, boolean counting);
    }

    /**
     * Keeps {@code concurrency} calls in flight: each completion starts the next. Warms up, then counts completed
     * operations and records latencies for {@code seconds}, then lets the calls in flight drain.
     */
    private Result closedLoop(int concurrency, Call call) throws InterruptedException {
        Recorder recorder = new Recorder(3);
        AtomicLong operations = new AtomicLong();
        AtomicBoolean counting = new AtomicBoolean(false);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong failures = new AtomicLong();
        CountDownLatch drained = new CountDownLatch(concurrency);
        for (int slot = 0; slot < concurrency; slot++) {
            loop(call, recorder, operations, counting, running, failures, drained);
        }
        Thread.sleep(warmUp(seconds) * 1000L);
        recorder.reset();
        operations.set(0);
        counting.set(true);
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long counted = operations.get();
        double elapsed = (System.nanoTime() - start) / 1e9;
        var histogram = recorder.getIntervalHistogram();
        running.set(false);
        drained.await();
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " calls failed");
        }
        return new Result(counted / elapsed, histogram.getValueAtPercentile(50) / 1e6,
                histogram.getValueAtPercentile(99) / 1e6);
    }

    private static void loop(Call call, Recorder recorder, AtomicLong operations, AtomicBoolean counting,
                             AtomicBoolean running, AtomicLong failures, CountDownLatch drained) {
        if (!running.get()) {
            drained.countDown();
            return;
        }
        long started = System.nanoTime();
        CompletableFuture<Integer> call0;
        try {
            call0 = call.start(recorder, counting.get()).toCompletableFuture();
        } catch (RuntimeException e) {
            call0 = CompletableFuture.failedFuture(e);
        }
        call0.whenComplete((done, failure) -> {
            if (failure != null) {
                failures.incrementAndGet();
                System.err.println("call failed: " + failure);
                running.set(false);
            } else if (counting.get()) {
                recorder.recordValue(System.nanoTime() - started);
                operations.addAndGet(done);
            }
            loop(call, recorder, operations, counting, running, failures, drained);
        });
    }

    private static void openAccounts(AccountService accounts) {
        List<CompletableFuture<Account>> opened = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            opened.add(accounts.open("acc-" + i, 1_000, 0).toCompletableFuture());
        }
        opened.forEach(CompletableFuture::join);
    }

    private static long sum(HazelcastInstance member) {
        return Maps.accounts(member).values().stream().mapToLong(Account::balance).sum();
    }
}
