package io.partita.load;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load tool's workload, in the test's JVM, against node processes while a fault is injected: the fault lands once
 * the load is acknowledged, the load goes on until it is acknowledged again after the fault, then the test waits for a
 * safe cluster and checks everything acknowledged.
 */
final class FaultScenarios {

    /** The nodes' partita.request-timeout in the fault tests: a request without its data answers 503 by then. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    /**
     * One attempt of the load tool: longer than the nodes' own bound, so their 503 is heard instead of cut off (a
     * client that gives up first retries work the node is still doing, and learns nothing from it).
     */
    static final Duration ATTEMPT_TIMEOUT = REQUEST_TIMEOUT.plusSeconds(2);

    interface Fault {
        void inject() throws Exception;
    }

    /** A fault that also sends requests of its own into the run (probes), recorded for the final check. */
    interface ProbingFault {
        void inject(Workload workload) throws Exception;
    }

    private FaultScenarios() {
    }

    /** {@code upTo}: the most the load may run; each scenario stops it once it has seen what it waits for. */
    static LoadOptions options(ProcessCluster cluster, String prefix, String mode, Duration upTo) {
        String targets = String.join(",", cluster.urls().stream().map(Object::toString).toList());
        return LoadOptions.parse("--targets", targets, "--accounts", "100", "--duration", upTo.toMillis() + "ms",
                "--mode", mode, "--retries", "20%", "--transfers", "25%", "--concurrency", "8", "--prefix", prefix,
                "--attempt-timeout", ATTEMPT_TIMEOUT.toMillis() + "ms", "--give-up", "45s", "--settle", "45s");
    }

    /**
     * Opens the accounts and drives the load; once {@code acknowledgedFirst} operations have been acknowledged, runs
     * {@code fault} (which returns when the fault is over: a node restarted, a node joined); then lets the load run
     * until {@code acknowledgedAfter} more operations are acknowledged, stops it, waits for the cluster to be safe
     * with {@code membersAfter} members, and asserts that the verdict passes. The tool's output goes to stdout.
     */
    static Verification.Verdict run(ProcessCluster cluster, LoadOptions options, int acknowledgedFirst, Fault fault,
                                    int acknowledgedAfter, int membersAfter) throws Exception {
        return run(cluster, options, acknowledgedFirst, workload -> fault.inject(), acknowledgedAfter, membersAfter);
    }

    /** {@link #run(ProcessCluster, LoadOptions, int, Fault, int, int)} with a fault that probes the run's nodes. */
    static Verification.Verdict run(ProcessCluster cluster, LoadOptions options, int acknowledgedFirst,
                                    ProbingFault fault, int acknowledgedAfter, int membersAfter) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Workload workload = new Workload(options, out);
        workload.open();
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
            try {
                workload.drive();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            await("the load acknowledged before the fault").atMost(Duration.ofSeconds(60))
                    .until(() -> workload.definiteAnswers() >= acknowledgedFirst);
            fault.inject(workload);
            long afterFault = workload.definiteAnswers();
            await("the load acknowledged after the fault").atMost(Duration.ofSeconds(60))
                    .until(() -> workload.definiteAnswers() >= afterFault + acknowledgedAfter);
        } finally {
            workload.stop();
            load.get(options.giveUp().toSeconds() + 60, TimeUnit.SECONDS);
        }
        cluster.awaitSafe(membersAfter);
        Verification.Verdict verdict = workload.settleAndVerify();
        verdict.failures().forEach(f -> out.println("  " + f));
        out.println(options.prefix() + ": " + verdict.summary());
        assertTrue(verdict.pass(), () -> verdict.summary() + " " + verdict.failures());
        return verdict;
    }
}
