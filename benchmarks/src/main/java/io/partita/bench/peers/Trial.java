package io.partita.bench.peers;

import io.partita.bench.Throughput;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * One system on one set of accounts: opens the ledger, runs {@code threads} client threads in a closed loop (each
 * posts a transaction and waits for its answer before the next), warms up, measures a window, stops, and checks the
 * system's state against the clients' {@link Tally}.
 *
 * <p>What runs where: the client threads are this JVM's platform threads, one {@link PeerLedger.Session} each; the
 * main thread only sleeps, samples CPU times at the window's edges and checks for a failed client. A client that
 * fails (an error, a wrong answer) stops every client, and the trial throws instead of reporting.
 *
 * <p>Measured: transactions answered within the window per second; the latency of each (call to answer) answered in
 * it, in an HdrHistogram; the CPU time the system spent in the window ({@link Cpu}) over the window's length (cores
 * used), and the client's likewise.
 */
final class Trial {

    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPED = 2;

    /** The length of one window of the steady-rate check that ends a warm-up. */
    static final int STEADY_WINDOW_SECONDS = 5;

    /** How close two windows' rates must be for the warm-up to end: within 5% of each other. */
    static final double STEADY_TOLERANCE = 0.05;

    /** The JIT compilers' use of a core below which a JVM counts as compiled. */
    static final double COMPILING_CORES = 0.05;

    /**
     * How the workload is shaped and how long each phase lasts. The warm-up lasts at least {@code warmupSeconds}, then
     * goes on in {@link #STEADY_WINDOW_SECONDS} windows until one's rate is within {@link #STEADY_TOLERANCE} of the
     * window before it, for at most {@code warmupMaxSeconds} in all: three node JVMs sharing two cores take minutes of
     * compiling before they answer at their steady rate, and a window measured before that measures the compilers.
     */
    record Settings(int threads, int warmupSeconds, int warmupMaxSeconds, int seconds, long opening, long overdraft,
                    double debitShare, double repeatShare) {

        /** The longest the warm-up lasts: its maximum, or its minimum when that is longer. */
        int warmupLimitSeconds() {
            return Math.max(warmupSeconds, warmupMaxSeconds);
        }
    }

    /** A trial's figures; {@code checked} is the correctness check's summary. */
    record Outcome(double elapsedSeconds, long measured, double txPerSecond, double p50Ms, double p99Ms,
                   double systemCores, double clientCores, long transactions, long rejected, long repeats,
                   long retries, String checked, String described) {
    }

    private Trial() {
    }

    static Outcome run(PeerLedger ledger, int accounts, Settings settings) throws Exception {
        return run(ledger, accounts, settings, "trial");
    }

    /** As {@link #run(PeerLedger, int, Settings)}; {@code name} names the window in a flight recording. */
    static Outcome run(PeerLedger ledger, int accounts, Settings settings, String name) throws Exception {
        long opening = System.nanoTime();
        ledger.open(accounts, settings.opening(), settings.overdraft());
        String described = ledger.describe();
        System.out.printf(Locale.ROOT, "  started or reached, %,d accounts opened, in %.1f s%n", accounts,
                seconds(opening));
        Tally tally = new Tally();
        Recorder recorder = new Recorder(3);
        LongAdder measured = new LongAdder();
        LongAdder answered = new LongAdder();
        AtomicInteger phase = new AtomicInteger(WARMING);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<PeerLedger.Session> sessions = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        try {
            for (int i = 0; i < settings.threads(); i++) {
                sessions.add(ledger.session(i));
            }
            for (int i = 0; i < settings.threads(); i++) {
                PeerLedger.Session session = sessions.get(i);
                Mix mix = new Mix("t" + i + "-", accounts, settings.debitShare(), settings.repeatShare(), 1000L + i);
                Thread client = new Thread(() -> {
                    try {
                        while (phase.get() != STOPPED && failure.get() == null) {
                            Tx tx = mix.next();
                            long started = System.nanoTime();
                            Answer answer = session.post(tx);
                            long took = System.nanoTime() - started;
                            answered.increment();
                            if (mix.isRepeat()) {
                                tally.repeat(tx, answer, mix.firstAnswer());
                            } else {
                                tally.first(tx, answer);
                                mix.answered(tx, answer);
                            }
                            if (phase.get() == MEASURING) {
                                recorder.recordValue(took);
                                measured.increment();
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "peers-client-" + i);
                clients.add(client);
            }
            clients.forEach(Thread::start);
            warmUp(ledger, settings, answered, failure);

            Set<Long> pids = new HashSet<>(ledger.serverPids());
            Map<Long, Long> serverBefore = Cpu.processes(pids);
            long selfBefore = Cpu.self();
            long clientBefore = clientCpu(clients);
            long operationsBefore = ledger.memberOperations();
            // The window in a flight recording, named <system>/<accounts> for the profile tool's --phase.
            Throughput.PhaseEvent event = new Throughput.PhaseEvent();
            event.phase = name + "/" + accounts;
            event.concurrency = settings.threads();
            recorder.reset();
            phase.set(MEASURING);
            event.begin();
            long start = System.nanoTime();
            sleep(settings.seconds(), failure);
            double elapsed = (System.nanoTime() - start) / 1e9;
            event.commit();
            long count = measured.sum();
            Histogram latencies = recorder.getIntervalHistogram();
            // CPU times before the clients stop: a thread that has ended has no CPU time to read.
            long clientSpent = clientCpu(clients) - clientBefore;
            long selfSpent = Cpu.self() - selfBefore;
            pids.addAll(ledger.serverPids());
            Map<Long, Long> serverAfter = Cpu.processes(pids);
            double operationsPerTx = operationsBefore < 0 ? Double.NaN
                    : (ledger.memberOperations() - operationsBefore) / (double) Math.max(1, count);
            phase.set(STOPPED);

            for (Thread client : clients) {
                client.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("A client failed: " + failure.get(), failure.get());
            }
            long retries = sessions.stream().mapToLong(PeerLedger.Session::retries).max().orElse(0);
            for (PeerLedger.Session session : sessions) {
                session.close();
            }
            sessions.clear();
            long checking = System.nanoTime();
            String checked = tally.verify(ledger.state(), accounts);
            System.out.printf(Locale.ROOT, "  read back and checked in %.1f s%n", seconds(checking));
            if (!Double.isNaN(operationsPerTx)) {
                described = String.format(Locale.ROOT, "%s; %.2f member-to-member operations per transaction",
                        described, operationsPerTx);
                System.out.printf(Locale.ROOT, "  %.2f member-to-member operations per transaction%n",
                        operationsPerTx);
            }
            double systemCores = (ledger.inProcess() ? selfSpent - clientSpent : Cpu.spent(serverBefore, serverAfter))
                    / 1e9 / elapsed;
            double clientCores = (ledger.inProcess() ? clientSpent : selfSpent) / 1e9 / elapsed;
            return new Outcome(elapsed, count, count / elapsed, latencies.getValueAtPercentile(50) / 1e6,
                    latencies.getValueAtPercentile(99) / 1e6, systemCores, clientCores, tally.transactions(),
                    tally.rejected(), tally.repeats(), retries, checked, described);
        } finally {
            phase.set(STOPPED);
            for (Thread client : clients) {
                client.join(30_000);
            }
            for (PeerLedger.Session session : sessions) {
                try {
                    session.close();
                } catch (Exception e) {
                    // Closing after a failure: the failure is what matters.
                }
            }
        }
    }

    /**
     * Sleeps the warm-up's minimum, then windows of {@link #STEADY_WINDOW_SECONDS} until the system is steady or the
     * maximum is reached, and prints how it ended. Steady: a window answered within {@link #STEADY_TOLERANCE} of the
     * window before it, and the JIT compilers of the system's JVMs (the node processes, or this one for an in-process
     * system) used less than {@link #COMPILING_CORES} of a core in it. The rate alone is not enough: three node JVMs
     * on two cores climb in steps, and two windows on one step look steady at half the final rate.
     */
    private static void warmUp(PeerLedger ledger, Settings settings, LongAdder answered,
                               AtomicReference<Throwable> failure) throws Exception {
        long started = System.nanoTime();
        sleep(settings.warmupSeconds(), failure);
        double previous = -1;
        long count = answered.sum();
        long compiling = Cpu.compilers(jvms(ledger));
        while (failure.get() == null
                && seconds(started) + STEADY_WINDOW_SECONDS <= settings.warmupLimitSeconds()) {
            sleep(STEADY_WINDOW_SECONDS, failure);
            long now = answered.sum();
            long compiled = Cpu.compilers(jvms(ledger));
            double rate = (now - count) / (double) STEADY_WINDOW_SECONDS;
            double compilerCores = (compiled - compiling) / 1e9 / STEADY_WINDOW_SECONDS;
            count = now;
            compiling = compiled;
            if (previous > 0 && Math.abs(rate - previous) <= STEADY_TOLERANCE * previous
                    && compilerCores < COMPILING_CORES) {
                System.out.printf(Locale.ROOT, "  warmed up in %.0f s: %,.0f then %,.0f tx/s, compilers at %.2f "
                        + "cores%n", seconds(started), previous, rate, compilerCores);
                return;
            }
            previous = rate;
        }
        if (settings.warmupLimitSeconds() > settings.warmupSeconds()) {
            System.out.printf(Locale.ROOT, "  warm-up ended at its maximum, %.0f s, before the rate was steady%n",
                    seconds(started));
        }
    }

    /** The JVMs whose compilers the warm-up watches: the system's processes, or this one when it runs in it. */
    private static Set<Long> jvms(PeerLedger ledger) throws Exception {
        return ledger.inProcess() ? Set.of(ProcessHandle.current().pid()) : new HashSet<>(ledger.serverPids());
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static long clientCpu(List<Thread> clients) {
        return clients.stream().mapToLong(Cpu::thread).sum();
    }

    /** Sleeps {@code seconds}, returning early when a client failed. */
    private static void sleep(int seconds, AtomicReference<Throwable> failure) throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (failure.get() == null && System.nanoTime() < until) {
            Thread.sleep(Math.max(1, Math.min(100, (until - System.nanoTime()) / 1_000_000)));
        }
    }
}
