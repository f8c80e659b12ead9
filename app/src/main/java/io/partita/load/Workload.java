package io.partita.load;

import io.partita.client.AlreadyExistsException;
import io.partita.client.ClientListener;
import io.partita.client.JournalLine;
import io.partita.client.OutcomeUnknownException;
import io.partita.client.PartitaClient;
import io.partita.client.PartitaException;
import io.partita.client.PartitionLostException;
import io.partita.client.TransferResult;
import io.partita.client.TxResult;
import io.partita.client.TxType;
import io.partita.client.UnreadableAnswerException;
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
import java.util.Locale;
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
 * <b>Threads:</b> {@code concurrency} worker threads each run one operation at a time, a sync call through the Java
 * client ({@link PartitaClient}: each call goes to its account's owner and retries an unknown outcome with the same
 * txId within the give-up time); a daemon thread prints the progress line once a second from an HdrHistogram
 * {@link Recorder}, which workers record into without locks. Results go to concurrent queues, read only after the
 * workers stop.
 *
 * <p>The fault tests call this class directly, in their own JVM, against node processes.
 */
final class Workload implements AutoCloseable {

    static final int JOURNAL_LIMIT = 1000;

    /** Pages of an account's journal the final check reads at most: 100,000 entries. */
    static final int JOURNAL_PAGES = 100;
    /** Lines about single operations printed at most; a fault can produce thousands. */
    static final int SAID = 50;
    /** Unknown outcomes whose reason is printed (the journal decides them; the reason says what the fault did). */
    static final int SAID_UNKNOWN = 10;

    private final LoadOptions options;
    private final PrintStream out;
    private final PartitaClient client;
    /** The client's attempts that gave no definite answer, and the ones it sent again. */
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final List<String> accounts = new ArrayList<>();
    /** Clients that know one node only, for operations a fault test sends to that node ({@link #perform}). */
    private final Map<URI, PartitaClient> pinned = new ConcurrentHashMap<>();
    private final Map<String, Opening> opening = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Result> results = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Replay> replays = new ConcurrentLinkedQueue<>();
    private final Recorder latency = new Recorder(3);
    private final AtomicLong definite = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong said = new AtomicLong();
    private final AtomicLong sequence = new AtomicLong();
    private volatile boolean stopped;

    Workload(LoadOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.client = client(options, options.targets(), true, new ClientListener() {
            @Override
            public void onRetry(String operation, URI node, int attempt, int status, long waitNanos) {
                errors.incrementAndGet();
                retries.incrementAndGet();
            }

            @Override
            public void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
                if (outcome == Outcome.UNKNOWN) {
                    errors.incrementAndGet();
                }
            }
        });
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
                    try {
                        client.openAccount(id, 100_000, limit);
                    } catch (AlreadyExistsException e) {
                        // The prefix is unique to this run: an earlier attempt of this call opened it.
                    } catch (PartitaException | OutcomeUnknownException e) {
                        throw new IllegalStateException("could not open account " + id + ": " + e.getMessage(), e);
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
     * Sends one operation, to {@code first} only (null: to its account's owner), records its answer and, for the
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
            // Why the first few had no answer (the last failure the client saw), on a quota of their own.
            if (unknown.incrementAndGet() <= SAID_UNKNOWN && answer.detail() != null) {
                out.println("unknown outcome of " + op.txId() + ": " + answer.detail());
            }
        } else {
            say("unexpected answer to " + op.txId() + ": " + answer.httpStatus() + " " + answer.detail());
        }
    }

    /**
     * One call through the client: to the account's owner, or with {@code first} to that node alone (a client of its
     * own that knows no other node), retried with the same txId on an unknown outcome within the give-up time.
     */
    private Answer send(Op op, URI first) {
        PartitaClient via = first == null ? client : pinned.computeIfAbsent(first,
                node -> client(options, List.of(node), false, ClientListener.NONE));
        try {
            if (op.kind() == LoadRecord.Kind.TRANSFER) {
                return answer(via.transfer(op.txId(), op.account(), op.to(), op.amount()));
            }
            return answer(via.post(op.account(), TxType.valueOf(op.kind().name()), op.amount(), op.txId()));
        } catch (PartitaException | OutcomeUnknownException | UnreadableAnswerException failure) {
            return answer(failure);
        }
    }

    /**
     * The load tool's client of {@code nodes}: its timeouts, its mode, and the credentials from the environment.
     * Partition-aware, it sends each call to its account's owner; else only to {@code nodes}.
     */
    private static PartitaClient client(LoadOptions options, List<URI> nodes, boolean partitionAware,
                                        ClientListener listener) {
        PartitaClient.Builder builder = PartitaClient.builder(nodes.stream().map(URI::toString).toArray(String[]::new))
                .connectTimeout(options.attemptTimeout())
                .attemptTimeout(options.attemptTimeout())
                .retryBudget(options.giveUp())
                .partitionAware(partitionAware)
                .mode(PartitaClient.Mode.valueOf(options.mode().toUpperCase(Locale.ROOT)))
                .listener(listener);
        String user = System.getenv("PARTITA_LOAD_USER");
        if (user != null && !user.isBlank()) {
            String password = System.getenv("PARTITA_LOAD_PASSWORD");
            builder.credentials(user, password == null ? "" : password);
        }
        return builder.build();
    }

    /** A debit's or credit's decision: applied (200) or rejected (422), with the balance the node reported. */
    static Answer answer(TxResult result) {
        return new Answer(result.applied() ? Outcome.APPLIED : Outcome.REJECTED, result.applied() ? 200 : 422,
                result.balance(), null, result.replayed(), null);
    }

    /** A transfer's decision: completed (200) or rejected (422), with the balances the node reported. */
    static Answer answer(TransferResult result) {
        return new Answer(result.completed() ? Outcome.APPLIED : Outcome.REJECTED, result.completed() ? 200 : 422,
                result.fromBalance(), result.toBalance(), result.replayed(), null);
    }

    /**
     * A call without a decision. Only a decision is an answer the API allows here: the accounts were opened by this
     * run and its ids are unique to it, so a 404, a 409 (or any other refusal), like an answer the client cannot
     * read, is a broken contract, recorded as UNEXPECTED for the check to fail on. No definite answer within the
     * give-up time, a partition still lost when it ends, and any other 5xx leave the outcome unknown: the journal
     * decides.
     */
    static Answer answer(RuntimeException failure) {
        if (failure instanceof OutcomeUnknownException || failure instanceof PartitionLostException
                || failure instanceof PartitaException refusal && refusal.status() >= 500) {
            return Answer.unknown(failure.getMessage());
        }
        if (failure instanceof PartitaException refusal) {
            return Answer.unexpected(refusal.status(), refusal.getMessage());
        }
        if (failure instanceof UnreadableAnswerException unreadable) {
            return Answer.unexpected(unreadable.status(), unreadable.getMessage());
        }
        throw failure;
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
                    interval.getMaxValue() / 1000.0, errors.get(), retries.get(), unknown.get(),
                    replays.size());
        }
    }

    Run run() {
        return new Run(Map.copyOf(opening), List.copyOf(results), List.copyOf(replays));
    }

    /** Reads every account's balance and whole journal (newest first, {@link #JOURNAL_LIMIT} lines a page). */
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
                    try {
                        io.partita.client.Account view = client.account(account);
                        balances.put(account, view.balance());
                        if (view.mergeConflicts() > 0) {
                            conflicted.add(account);
                        }
                    } catch (PartitaException | OutcomeUnknownException e) {
                        // Not read: the check reports the account as missing.
                    }
                    // Newest first, a page of JOURNAL_LIMIT at a time, each page before the oldest seq of the last.
                    List<Entry> entries = new ArrayList<>();
                    long before = Long.MAX_VALUE;
                    boolean read = false;
                    for (int page = 0; page < JOURNAL_PAGES; page++) {
                        List<JournalLine> lines;
                        try {
                            lines = client.journal(account, before, JOURNAL_LIMIT);
                        } catch (PartitaException | OutcomeUnknownException e) {
                            break;
                        }
                        read = true;
                        for (JournalLine line : lines) {
                            entries.add(new Entry(line.txId(), line.type(), line.amount(), line.status(),
                                    line.balanceAfter(), line.merged()));
                            before = Math.min(before, line.seq());
                        }
                        // The end: an empty page, or seq 1. A short page is not: it covers up to JOURNAL_LIMIT
                        // seqs, and fewer lines where seqs are missing (which the check then reports).
                        if (lines.isEmpty() || before <= 1) {
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

    /** The run's {@code --mode}: partitioned or locked. */
    String mode() {
        return options.mode();
    }

    /** Closes the run's clients: their kept-alive connections and threads. */
    @Override
    public void close() {
        client.close();
        pinned.values().forEach(PartitaClient::close);
    }

    /** Prints a line about one operation; past {@link #SAID} of them, only their count (at the end of the run). */
    private void say(String line) {
        if (said.incrementAndGet() <= SAID) {
            out.println(line);
        }
    }
}
