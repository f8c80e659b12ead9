package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.runtime.server.EmbeddedServer;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.ApplyTransactions;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.transaction.TransactionService;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How far is HTTP from the grid, and the grid from the hardware? One run measures, on 1 and on 3 nodes started in this
 * JVM (TCP on 127.0.0.1, the app's configuration, {@code partita.max-in-flight} at its shipped default), credits of 1
 * on random accounts through:
 * <ol>
 *   <li>{@code grid-raw}: the app's one grid call per transaction made directly on Hazelcast's futures, from node 0:
 *       its entry processor ({@code submitToKey}, one transaction each), the callback run where Hazelcast runs it
 *       (the continuation pool); a window of 256 in flight;</li>
 *   <li>{@code grid-path}: {@code TransactionService.apply}, as HTTP runs it (the partition batcher, which sends what
 *       waits for one partition as one operation, the request timeout, failure translation and metrics), same
 *       window: the in-process limit of the path HTTP calls take;</li>
 *   <li>{@code http-noop}: a no-op endpoint shaped like the next one, on the same servers: the framework's
 *       ceiling;</li>
 *   <li>{@code http-single}: {@code POST /accounts/{id}/transactions}, a closed loop of N clients;</li>
 *   <li>{@code http-batch-1000}: {@code POST /transactions/batch} of 1,000 items, 4 in flight.</li>
 * </ol>
 * HTTP calls go to the nodes in turn. The client shares the machine with the nodes, as it would on one host.
 *
 * <p>Why the phases are comparable: each starts on an empty grid with 10,000 accounts of its own, opened for it, and
 * leaves nothing behind (its accounts and journal are cleared and the heap collected before the next). In every phase
 * the nodes' journal writers copy each transaction's entry to the journal, on the same cores, as they do in service;
 * the check after a phase waits until they have caught up.
 *
 * <p>Warm-up: on each cluster, every phase first runs once unmeasured for the warm-up time (the first cluster's pass
 * is the JVM's warm-up; the next cluster's warms its connections and partitions), then each measured phase ramps up
 * for a third of its time before it counts.
 *
 * <p>The check, after each phase (warm-up passes included): the sum of the phase's balances is the opening sum plus
 * every credit it saw acknowledged, the sum of account versions equals that count, and, once no tail holds an entry
 * the journal lacks, so does the journal's size; no call failed; otherwise the run stops with exit code 1 instead of
 * reporting.
 *
 * <p>What runs where: the nodes' partition, I/O and continuation threads, Netty's event loops, the JDK HTTP client
 * and this harness's completion callbacks (which start each next call) all share this JVM's cores. A JDK Flight
 * Recorder event ({@link PhaseEvent}) spans each measured phase, so {@link Profile} can show one phase's samples.
 *
 * <p>Run (with {@code -jar}, so that the nodes get the module access a shipped node gets; see {@link Main}):
 * {@code java -jar benchmarks/target/benchmarks.jar throughput [seconds] [nodes...] [--warmup S] [--phases a,b]},
 * e.g. {@code throughput 6 1 3}: 6 s measured per phase on 1, then 3 nodes.
 */
public final class Throughput {

    static final int ACCOUNTS = 10_000;
    static final long OPENING_BALANCE = 1_000;
    static final int WINDOW = 256;
    static final int BATCH = 1_000;
    static final int BATCHES_IN_FLIGHT = 4;
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);

    /** One measured phase: what it calls, with how many calls in flight. */
    record Phase(String name, int concurrency, boolean grid) {

        String label() {
            return name + "/" + concurrency;
        }
    }

    static final List<Phase> PHASES = List.of(
            new Phase("grid-raw", WINDOW, true),
            new Phase("grid-path", WINDOW, true),
            new Phase("http-noop", 16, false),
            new Phase("http-single", 16, true),
            new Phase("http-noop", 64, false),
            new Phase("http-single", 64, true),
            new Phase("http-batch-" + BATCH, BATCHES_IN_FLIGHT, true));

    record Options(int seconds, int warmUpSeconds, List<Integer> nodes, List<Phase> phases) {

        static Options parse(String[] args) {
            List<Integer> numbers = new ArrayList<>();
            Integer warmUp = null;
            Set<String> names = new LinkedHashSet<>();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--warmup" -> warmUp = Integer.parseInt(args[++i]);
                    case "--phases" -> names.addAll(Arrays.asList(args[++i].split(",")));
                    default -> numbers.add(Integer.parseInt(args[i]));
                }
            }
            int seconds = numbers.isEmpty() ? 10 : numbers.get(0);
            List<Integer> nodes = numbers.size() > 1 ? numbers.subList(1, numbers.size()) : List.of(1, 3);
            List<Phase> phases = PHASES.stream()
                    .filter(phase -> names.isEmpty() || names.contains(phase.name()))
                    .toList();
            Set<String> known = PHASES.stream().map(Phase::name).collect(Collectors.toSet());
            if (phases.isEmpty() || !known.containsAll(names) || seconds < 1) {
                throw new IllegalArgumentException("phases are " + known + "; seconds at least 1");
            }
            return new Options(seconds, warmUp == null ? Math.max(5, seconds) : warmUp, List.copyOf(nodes), phases);
        }

        int rampSeconds() {
            return Math.max(2, seconds / 3);
        }
    }

    /**
     * Marks a measured phase in a flight recording; recorded only while one runs. The peers tool marks its trials'
     * windows with it too, so that {@link Profile} reads both.
     */
    @Name("io.partita.bench.Phase")
    @Label("Benchmark phase")
    @Category("Partita")
    public static final class PhaseEvent extends Event {
        @Label("Nodes")
        public int nodes;
        @Label("Phase")
        public String phase;
        @Label("Concurrency")
        public int concurrency;
    }

    record Result(double opsPerSecond, double p50, double p99) {
    }

    private final Options options;
    private final List<String> rows = new ArrayList<>();
    private final AtomicLong txCounter = new AtomicLong();
    private int round;

    private Throughput(Options options) {
        this.options = options;
    }

    /**
     * Sizes the JDK's common pool to at least 2 threads, unless the JVM was told otherwise; called first thing. The JDK
     * HTTP client completes its exchanges with async callbacks on the common pool, which on a 2-core machine has one
     * thread and so runs each callback on a new thread: the client, not the nodes, would be measured. The size is read
     * once, when the pool is first used.
     */
    private static void sizeCommonPool() {
        String parallelism = "java.util.concurrent.ForkJoinPool.common.parallelism";
        if (System.getProperty(parallelism) == null) {
            System.setProperty(parallelism, String.valueOf(Math.max(2, Runtime.getRuntime().availableProcessors())));
        }
    }

    public static void main(String[] args) {
        int exitCode = 1;
        try {
            Options options = Options.parse(args);
            // The in-process HTTP client needs it; the nodes in this JVM do not use the common pool.
            sizeCommonPool();
            if (!Main.moduleAccessAsShipped()) {
                System.err.println("WARNING: started without the module access a node's jar grants (use java -jar "
                        + "benchmarks.jar throughput): Hazelcast runs its slower fallbacks, unlike a shipped node");
            }
            Throughput run = new Throughput(options);
            for (int size : options.nodes()) {
                run.measure(size);
            }
            run.report();
            exitCode = 0;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: throughput [seconds] [nodes...] [--warmup seconds] [--phases name,name]");
            exitCode = 2;
        } catch (Throwable e) {
            System.err.println("FAILED: " + e);
            e.printStackTrace();
        }
        // Micronaut, Hazelcast and the HTTP client leave threads that would keep the JVM alive after a failure.
        System.exit(exitCode);
    }

    private void report() {
        System.out.println();
        System.out.printf(Locale.ROOT, "cores %d, heap %d MiB, common pool %d, module access as shipped: %s; "
                        + "%d s measured per phase after a %d s ramp; warm-up pass %d s per phase per cluster%n",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ForkJoinPool.getCommonPoolParallelism(), Main.moduleAccessAsShipped() ? "yes" : "NO",
                options.seconds(), options.rampSeconds(), options.warmUpSeconds());
        System.out.println("| nodes | phase | concurrency | ops/s | p50 ms | p99 ms | / grid-path | / http-noop |");
        System.out.println("|---|---|---|---:|---:|---:|---:|---:|");
        rows.forEach(System.out::println);
    }

    private void measure(int size) throws Exception {
        try (LocalCluster cluster = LocalCluster.startWithHttp(size, 0, Map.of())) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            System.out.printf("%d node(s) formed; max-in-flight %s per node%n", size,
                    cluster.context(0).getProperty("partita.max-in-flight", Integer.class).orElse(null));
            for (Phase phase : options.phases()) {
                run(cluster, http, size, phase, options.warmUpSeconds(), 0);
            }
            Map<String, Result> results = new LinkedHashMap<>();
            for (Phase phase : options.phases()) {
                results.put(phase.label(), run(cluster, http, size, phase, options.rampSeconds(), options.seconds()));
            }
            Result path = results.get("grid-path/" + WINDOW);
            Result widestNoop = results.get("http-noop/64");
            results.forEach((label, result) -> {
                Phase phase = PHASES.stream().filter(p -> p.label().equals(label)).findFirst().orElseThrow();
                Result noop = phase.name().startsWith("http-single") ? results.get("http-noop/" + phase.concurrency())
                        : phase.name().startsWith("http-batch") ? widestNoop
                        : phase.name().equals("http-noop") ? result : null;
                rows.add(row(size, phase, result, path, noop));
            });
        }
    }

    private static String row(int nodes, Phase phase, Result result, Result path, Result noop) {
        return String.format(Locale.ROOT, "| %d | %s | %d | %,.0f | %.2f | %.2f | %s | %s |", nodes, phase.name(),
                phase.concurrency(), result.opsPerSecond(), result.p50(), result.p99(), ratio(result, path),
                ratio(result, noop));
    }

    private static String ratio(Result result, Result base) {
        return base == null ? "" : String.format(Locale.ROOT, "%.2f", result.opsPerSecond() / base.opsPerSecond());
    }

    /**
     * One phase on accounts of its own: opens them, ramps up for {@code rampSeconds}, measures for
     * {@code measureSeconds} (0 for a warm-up pass), drains, checks the grid, and clears it for the next phase.
     */
    private Result run(LocalCluster cluster, HttpClient http, int size, Phase phase, int rampSeconds,
                       int measureSeconds) throws Exception {
        String prefix = String.format(Locale.ROOT, "a%03d-", round++);
        HazelcastInstance member = cluster.member(0);
        if (phase.grid()) {
            openAccounts(cluster.bean(0, AccountService.class), prefix);
        }
        long openingSum = sum(AccountFeature.accounts(member).values());
        AtomicLong acknowledged = new AtomicLong();
        Call call = switch (phase.name()) {
            case "grid-raw" -> raw(member, prefix, acknowledged);
            case "grid-path" -> path(cluster.bean(0, TransactionService.class), prefix, acknowledged);
            case "http-noop" -> http(http, cluster.servers(), "/bench/noop/%s/transactions", prefix, null);
            case "http-single" -> http(http, cluster.servers(), "/accounts/%s/transactions", prefix, acknowledged);
            default -> batches(http, cluster.servers(), prefix, acknowledged);
        };
        PhaseEvent event = new PhaseEvent();
        event.nodes = size;
        event.phase = phase.name();
        event.concurrency = phase.concurrency();
        Result result = closedLoop(phase.concurrency(), rampSeconds, measureSeconds, call, event);
        String checked = check(member, phase, openingSum, acknowledged.get());
        System.out.printf(Locale.ROOT, "%d node(s), %-16s %s: %s%n", size, phase.label(),
                measureSeconds == 0 ? "warm-up" : String.format(Locale.ROOT, "%,.0f ops/s", result.opsPerSecond()),
                checked);
        AccountFeature.accounts(member).clear();
        AccountFeature.journal(member).clear();
        System.gc();
        return result;
    }

    /** The phase's books against the grid, once the journal writers caught up; throws on any difference. */
    private static String check(HazelcastInstance member, Phase phase, long openingSum, long acknowledged)
            throws InterruptedException {
        Books.awaitJournaled(member);
        Collection<Account> accounts = AccountFeature.accounts(member).values();
        long sum = sum(accounts);
        long versions = accounts.stream().mapToLong(Account::version).sum();
        long journal = AccountFeature.journal(member).size();
        int expectedAccounts = phase.grid() ? ACCOUNTS : 0;
        String figures = String.format(Locale.ROOT, "accounts %,d, balances %,d = opening %,d + acknowledged %,d; "
                + "versions %,d, journal %,d", accounts.size(), sum, openingSum, acknowledged, versions, journal);
        if (accounts.size() != expectedAccounts || sum != openingSum + acknowledged || versions != acknowledged
                || journal != acknowledged) {
            throw new IllegalStateException("Lost, doubled or unjournaled credits in " + phase.label() + ": "
                    + figures);
        }
        return "checked, " + figures;
    }

    private TxRequest credit() {
        return TxRequest.of("c-" + txCounter.incrementAndGet(), TxType.CREDIT, 1, System.currentTimeMillis());
    }

    private static String randomAccount(String prefix) {
        return prefix + ThreadLocalRandom.current().nextInt(ACCOUNTS);
    }

    /** The entry processor, one transaction per call, sent straight to the account's owner. */
    private Call raw(HazelcastInstance member, String prefix, AtomicLong acknowledged) {
        IMap<String, Account> accounts = AccountFeature.accounts(member);
        return () -> {
            String accountId = randomAccount(prefix);
            return accounts.submitToKey(accountId, ApplyTransactions.one(accountId, credit()))
                    .thenApply(outcomes -> applied(outcomes.list().get(0), acknowledged));
        };
    }

    private Call path(TransactionService service, String prefix, AtomicLong acknowledged) {
        return () -> service.apply(randomAccount(prefix), credit(), null)
                .thenApply(outcome -> applied(outcome, acknowledged));
    }

    private static int applied(TxOutcome outcome, AtomicLong acknowledged) {
        if (outcome.kind() != TxOutcome.Kind.RECORDED || outcome.entry().status() != TxStatus.APPLIED) {
            throw new IllegalStateException("Unexpected " + outcome);
        }
        acknowledged.incrementAndGet();
        return 1;
    }

    /** One credit per call; {@code acknowledged} null for the no-op endpoint, which records nothing. */
    private Call http(HttpClient http, List<EmbeddedServer> nodes, String path, String prefix,
                      AtomicLong acknowledged) {
        AtomicLong next = new AtomicLong();
        return () -> {
            EmbeddedServer node = nodes.get((int) (next.incrementAndGet() % nodes.size()));
            String txId = "h-" + txCounter.incrementAndGet();
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create(node.getURL() + String.format(path, randomAccount(prefix))))
                    .timeout(HTTP_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"txId\":\"" + txId + "\",\"type\":\"CREDIT\",\"amount\":1}"))
                    .build();
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
                if (response.statusCode() != 200 || !response.body().contains("\"APPLIED\"")) {
                    throw new IllegalStateException(response.statusCode() + " " + response.body());
                }
                if (acknowledged != null) {
                    acknowledged.incrementAndGet();
                }
                return 1;
            });
        };
    }

    private Call batches(HttpClient http, List<EmbeddedServer> nodes, String prefix, AtomicLong acknowledged) {
        AtomicLong next = new AtomicLong();
        return () -> {
            EmbeddedServer node = nodes.get((int) (next.incrementAndGet() % nodes.size()));
            String body = IntStream.range(0, BATCH)
                    .mapToObj(i -> "{\"txId\":\"b-" + txCounter.incrementAndGet() + "\",\"accountId\":\""
                            + randomAccount(prefix) + "\",\"type\":\"CREDIT\",\"amount\":1}")
                    .collect(Collectors.joining(",", "[", "]"));
            HttpRequest request = HttpRequest.newBuilder(URI.create(node.getURL() + "/transactions/batch"))
                    .timeout(HTTP_TIMEOUT)
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
        };
    }

    private static int count(String text, String token) {
        int count = 0;
        for (int at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length())) {
            count++;
        }
        return count;
    }

    /** Starts one operation; completes with the number of operations it did (1, or a batch's size). */
    interface Call {
        CompletionStage<Integer> start();
    }

    /**
     * Keeps {@code concurrency} calls in flight: each completion starts the next. Ramps up for {@code rampSeconds},
     * then counts completed operations and records latencies for {@code measureSeconds}, then stops starting calls
     * and waits for those in flight.
     */
    private static Result closedLoop(int concurrency, int rampSeconds, int measureSeconds, Call call,
                                     PhaseEvent event) throws InterruptedException {
        Loop loop = new Loop(call, concurrency);
        for (int slot = 0; slot < concurrency; slot++) {
            loop.next();
        }
        Thread.sleep(rampSeconds * 1000L);
        Result result = new Result(0, 0, 0);
        if (measureSeconds > 0) {
            loop.recorder.reset();
            loop.operations.set(0);
            loop.counting.set(true);
            event.begin();
            long start = System.nanoTime();
            Thread.sleep(measureSeconds * 1000L);
            long counted = loop.operations.get();
            double elapsed = (System.nanoTime() - start) / 1e9;
            Histogram histogram = loop.recorder.getIntervalHistogram();
            event.commit();
            result = new Result(counted / elapsed, histogram.getValueAtPercentile(50) / 1e6,
                    histogram.getValueAtPercentile(99) / 1e6);
        }
        loop.running.set(false);
        if (!loop.drained.await(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(loop.drained.getCount() + " calls unanswered after " + DRAIN_TIMEOUT);
        }
        if (loop.failures.get() > 0) {
            throw new IllegalStateException(loop.failures.get() + " calls failed");
        }
        return result;
    }

    /** The state of one closed loop, shared by its slots; each slot's completion callback starts its next call. */
    private static final class Loop {
        final Call call;
        final Recorder recorder = new Recorder(3);
        final AtomicLong operations = new AtomicLong();
        final AtomicBoolean counting = new AtomicBoolean();
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong failures = new AtomicLong();
        final CountDownLatch drained;

        Loop(Call call, int concurrency) {
            this.call = call;
            this.drained = new CountDownLatch(concurrency);
        }

        void next() {
            if (!running.get()) {
                drained.countDown();
                return;
            }
            long started = System.nanoTime();
            CompletableFuture<Integer> pending;
            try {
                pending = call.start().toCompletableFuture();
            } catch (RuntimeException e) {
                pending = CompletableFuture.failedFuture(e);
            }
            pending.whenComplete((done, failure) -> {
                if (failure != null) {
                    failures.incrementAndGet();
                    System.err.println("call failed: " + failure);
                    running.set(false);
                } else if (counting.get()) {
                    recorder.recordValue(System.nanoTime() - started);
                    operations.addAndGet(done);
                }
                next();
            });
        }
    }

    private static void openAccounts(AccountService accounts, String prefix) {
        List<CompletableFuture<Account>> opened = new ArrayList<>(ACCOUNTS);
        for (int i = 0; i < ACCOUNTS; i++) {
            opened.add(accounts.open(prefix + i, OPENING_BALANCE, 0).toCompletableFuture());
        }
        opened.forEach(CompletableFuture::join);
    }

    private static long sum(Collection<Account> accounts) {
        return accounts.stream().mapToLong(Account::balance).sum();
    }
}
