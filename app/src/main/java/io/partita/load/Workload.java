package io.partita.load;

import io.partita.load.LoadRecord.Answer;
import io.partita.load.LoadRecord.Entry;
import io.partita.load.LoadRecord.Observed;
import io.partita.load.LoadRecord.Op;
import io.partita.load.LoadRecord.Opening;
import io.partita.load.LoadRecord.Outcome;
import io.partita.load.LoadRecord.Replay;
import io.partita.load.LoadRecord.Result;
import io.partita.load.LoadRecord.Run;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load tool's workload: opens accounts, drives debits, credits and transfers from {@code concurrency} threads
 * for a duration, records every answer, and at the end reads balances and journals back for {@link Verification}.
 * <b>Threads:</b> {@code concurrency} worker threads each run one operation at a time (blocking HTTP through
 * {@link Client}); a daemon thread prints the progress line once a second from an HdrHistogram {@link Recorder}, which
 * workers record into without locks. Results go to concurrent queues, read only after the workers stop.
 *
 * <p>The fault tests call this class directly, in their own JVM, against node processes.
 */
final class Workload {

    static final int JOURNAL_LIMIT = 1000;

    /** Pages of an account's journal the final check reads at most: 100,000 entries. */
    static final int JOURNAL_PAGES = 100;
    /** Lines about single operations printed at most; a fault can produce thousands. */
    static final int SAID = 50;

    private final LoadOptions options;
    private final PrintStream out;
    private final Client client;
    private final List<String> accounts = new ArrayList<>();
    private final Map<String, Opening> opening = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Result> results = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Replay> replays = new ConcurrentLinkedQueue<>();
    private final Recorder latency = new Recorder(3);
    private final AtomicLong definite = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong said = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();
    private final String modeQuery;
    private volatile boolean stopped;

    Workload(LoadOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.client = new Client(options.targets(), options.attemptTimeout(), options.giveUp());
        this.modeQuery = "?mode=" + options.mode();
        for (int i = 0; i < options.accounts(); i++) {
            accounts.add(options.prefix() + "-a" + i);
        }
    }

    /** Opens the accounts: 1,000.00 each (in cents: 100000), every fourth with an overdraft limit of 500.00. */
    void open() throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency());
        try {
            List<Future<?>> opened = new ArrayList<>();
            for (int i = 0; i < accounts.size(); i++) {
                String id = accounts.get(i);
                long limit = i % 4 == 0 ? 50_000 : 0;
                opened.add(pool.submit(() -> {
                    String body = "{\"id\":" + Json.quote(id) + ",\"balance\":100000,\"overdraftLimit\":" + limit
                            + "}";
                    Client.Response response = client.post("/accounts", body);
                    // 409 on a retry: the first attempt opened it (the prefix is unique to this run).
                    if (response == null || (response.status() != 201 && response.status() != 409)) {
                        throw new IllegalStateException("could not open account " + id + ": "
                                + (response == null ? "no answer" : response.status() + " " + response.body()));
                    }
                    opening.put(id, new Opening(100_000, limit));
                    return null;
                }));
            }
            for (Future<?> f : opened) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Drives operations for the configured duration, or until {@link #stop()}, printing progress every second;
     * returns when all have ended.
     */
    void drive() throws InterruptedException {
        long end = System.nanoTime() + options.duration().toNanos();
        Thread progress = new Thread(this::progress, "load-progress");
        progress.setDaemon(true);
        progress.start();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < options.concurrency(); w++) {
            Thread worker = new Thread(() -> {
                while (System.nanoTime() < end && !stopped && !Thread.currentThread().isInterrupted()) {
                    perform(randomOp(accounts), null);
                }
            }, "load-" + w);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        progress.interrupt();
        progress.join();
        if (said.get() > SAID) {
            out.println("(" + (said.get() - SAID) + " more lines about single operations not shown)");
        }
    }

    /** Ends {@link #drive()} early: each worker finishes the operation it is on, then stops. */
    void stop() {
        stopped = true;
    }

    /** A debit, credit or transfer (by the configured share) of a random amount on the given accounts, a new id. */
    Op randomOp(List<String> on) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String id = options.prefix() + "-t" + sequence.incrementAndGet();
        String account = on.get(random.nextInt(on.size()));
        long amount = 1 + random.nextInt(20_000);
        if (on.size() > 1 && random.nextDouble() < options.transferShare()) {
            String to = on.get(random.nextInt(on.size()));
            while (to.equals(account)) {
                to = on.get(random.nextInt(on.size()));
            }
            return Op.transfer(id, account, to, amount);
        }
        return random.nextBoolean() ? Op.debit(id, account, amount) : Op.credit(id, account, amount);
    }

    /**
     * Sends one operation, {@code first} to try first (null: a random target), records its answer and, for the
     * configured share of definite answers, replays it. Never throws: an error in the tool is recorded as the
     * operation's unknown outcome (the journal then decides), so no operation it sent goes unrecorded.
     */
    Answer perform(Op op, URI first) {
        long start = System.nanoTime();
        Answer answer = sendOrUnknown(op, first, "sending");
        latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
        record(op, answer);
        if (answer.definite() && ThreadLocalRandom.current().nextDouble() < options.retryShare()) {
            replays.add(new Replay(op, answer, sendOrUnknown(op, null, "replaying")));
        }
        return answer;
    }

    /** {@link #send}, with an error in the tool answered as an unknown outcome (and said). */
    private Answer sendOrUnknown(Op op, URI target, String doing) {
        try {
            return send(op, target);
        } catch (RuntimeException e) {
            say("error " + doing + " " + op.txId() + ": " + e);
            return Answer.unknown("error in the load tool: " + e);
        }
    }

    /** Records an operation sent outside {@link #perform}, such as a fault test's own probe, for the check. */
    void record(Op op, Answer answer) {
        results.add(new Result(op, answer));
        if (answer.definite()) {
            definite.incrementAndGet();
        } else if (answer.outcome() == Outcome.UNKNOWN) {
            unknown.incrementAndGet();
        } else {
            say("unexpected answer to " + op.txId() + ": " + answer.httpStatus() + " " + answer.detail());
        }
    }

    private Answer send(Op op, URI first) {
        return answer(op, client.post(path(op), body(op), first));
    }

    /** The operation's URI path, with the run's {@code ?mode=}. */
    String path(Op op) {
        return op.kind() == LoadRecord.Kind.TRANSFER ? "/transfers" + modeQuery
                : "/accounts/" + op.account() + "/transactions" + modeQuery;
    }

    static String body(Op op) {
        if (op.kind() == LoadRecord.Kind.TRANSFER) {
            return "{\"txId\":" + Json.quote(op.txId()) + ",\"from\":" + Json.quote(op.account()) + ",\"to\":"
                    + Json.quote(op.to()) + ",\"amount\":" + op.amount() + "}";
        }
        return "{\"txId\":" + Json.quote(op.txId()) + ",\"type\":\"" + op.kind() + "\",\"amount\":" + op.amount()
                + "}";
    }

    /**
     * What an answer means for the check. Only 200 and 422 are answers the API allows here: the accounts were opened
     * by this run and its ids are unique to it, so a 404 or 409 (or any other 4xx) is a broken contract, recorded as
     * UNEXPECTED for the check to fail on. 5xx and no answer at all come here as null: unknown outcome.
     */
    static Answer answer(Op op, Client.Response response) {
        if (response == null) {
            return Answer.UNKNOWN;
        }
        if (response.status() != 200 && response.status() != 422) {
            return Answer.unexpected(response.status(), response.body());
        }
        Outcome outcome = response.status() == 200 ? Outcome.APPLIED : Outcome.REJECTED;
        try {
            Map<String, Object> body = Json.object(response.body());
            boolean transfer = op.kind() == LoadRecord.Kind.TRANSFER;
            return new Answer(outcome, response.status(), number(body.get(transfer ? "fromBalance" : "balance")),
                    transfer ? number(body.get("toBalance")) : null, response.replayed(), null);
        } catch (RuntimeException e) {
            return Answer.unexpected(response.status(), "a body the load tool cannot read (" + e + "): "
                    + response.body());
        }
    }

    private static Long number(Object value) {
        return value == null ? null : ((Number) value).longValue();
    }

    private void progress() {
        long started = System.nanoTime();
        Histogram interval = null;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            interval = latency.getIntervalHistogram(interval);
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            out.printf("[%3ds] %6d ops/s  p50 %7.2f ms  p99 %7.2f ms  max %8.2f ms  errors %d  retries %d  "
                            + "unknown %d  replays %d%n", seconds, interval.getTotalCount(),
                    interval.getValueAtPercentile(50) / 1000.0, interval.getValueAtPercentile(99) / 1000.0,
                    interval.getMaxValue() / 1000.0, client.errors.get(), client.retries.get(), unknown.get(),
                    replays.size());
        }
    }

    Run run() {
        return new Run(Map.copyOf(opening), List.copyOf(results), List.copyOf(replays));
    }

    /** Reads every account's balance and journal (newest first, up to the API's limit of 1000 lines). */
    Observed observe() throws InterruptedException {
        Map<String, Long> balances = new ConcurrentHashMap<>();
        Map<String, List<Entry>> journals = new ConcurrentHashMap<>();
        List<String> truncated = new java.util.concurrent.CopyOnWriteArrayList<>();
        Set<String> conflicted = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(16, options.concurrency()));
        try {
            List<Future<?>> reads = new ArrayList<>();
            for (String account : accounts) {
                reads.add(pool.submit(() -> {
                    Client.Response balance = client.get("/accounts/" + account);
                    if (balance != null && balance.status() == 200) {
                        Map<String, Object> view = Json.object(balance.body());
                        balances.put(account, number(view.get("balance")));
                        if (view.get("mergeConflicts") instanceof Number conflicts && conflicts.longValue() > 0) {
                            conflicted.add(account);
                        }
                    }
                    // Newest first, a page of JOURNAL_LIMIT at a time, each page before the oldest seq of the last.
                    List<Entry> entries = new ArrayList<>();
                    long before = Long.MAX_VALUE;
                    boolean read = false;
                    for (int page = 0; page < JOURNAL_PAGES; page++) {
                        Client.Response journal = client.get("/accounts/" + account + "/transactions?limit="
                                + JOURNAL_LIMIT + "&before=" + before);
                        if (journal == null || journal.status() != 200) {
                            break;
                        }
                        read = true;
                        List<?> lines = (List<?>) Json.parse(journal.body());
                        for (Object line : lines) {
                            Map<?, ?> e = (Map<?, ?>) line;
                            entries.add(new Entry((String) e.get("txId"), (String) e.get("type"),
                                    number(e.get("amount")), (String) e.get("status"),
                                    number(e.get("balanceAfter")), Boolean.TRUE.equals(e.get("merged"))));
                            before = Math.min(before, number(e.get("seq")));
                        }
                        if (lines.size() < JOURNAL_LIMIT) {
                            break;
                        }
                        if (page == JOURNAL_PAGES - 1) {
                            truncated.add(account);
                        }
                    }
                    if (read) {
                        journals.put(account, entries);
                    }
                    return null;
                }));
            }
            for (Future<?> read : reads) {
                read.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("reading the final state failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new Observed(Map.copyOf(balances), Map.copyOf(journals), List.copyOf(truncated),
                Set.copyOf(conflicted));
    }

    /**
     * Reads the final state and verifies it, again and again until it passes or the settle time is over: transfers
     * whose coordinator died finish by the recovery pass a few seconds later, and a lost write never comes back, so
     * waiting hides nothing.
     */
    Verification.Verdict settleAndVerify() throws InterruptedException {
        return settleAndVerify(false);
    }

    /** {@link #settleAndVerify()}, judged as {@link Verification} judges a cluster whose split sides both decide. */
    Verification.Verdict settleAndVerify(boolean bothSidesDecide) throws InterruptedException {
        long deadline = System.nanoTime() + options.settle().toNanos();
        Run run = run();
        while (true) {
            Verification.Verdict verdict = Verification.verify(run, observe(), bothSidesDecide);
            if (verdict.pass() || System.nanoTime() > deadline) {
                return verdict;
            }
            out.println("not settled yet (" + verdict.failureCount() + " open check(s), e.g. "
                    + verdict.failures().get(0) + "); reading again");
            TimeUnit.SECONDS.sleep(2);
        }
    }

    long opsSent() {
        return results.size();
    }

    /** Operations answered 200 or 422 so far (replays not counted). */
    long definiteAnswers() {
        return definite.get();
    }

    List<String> accounts() {
        return List.copyOf(accounts);
    }

    /** The run's HTTP client, for a fault test's single attempts ({@link Client#once}). */
    Client client() {
        return client;
    }

    /** Prints a line about one operation; past {@link #SAID} of them, only their count (at the end of the run). */
    private void say(String line) {
        if (said.incrementAndGet() <= SAID) {
            out.println(line);
        }
    }
}
