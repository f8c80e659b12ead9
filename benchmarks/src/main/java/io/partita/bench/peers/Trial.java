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

    /** How the workload is shaped and how long each phase lasts. */
    record Settings(int threads, int warmupSeconds, int seconds, long opening, long overdraft, double debitShare,
                    double repeatShare) {
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
            sleep(settings.warmupSeconds(), failure);

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
