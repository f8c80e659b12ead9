package io.partita.load;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load tool's workload, in the test's JVM, against node processes while a fault is injected: drive for a while,
 * let the fault happen partway, then wait for a safe cluster and check everything acknowledged.
 */
final class FaultScenarios {

    interface Fault {
        void inject() throws Exception;
    }

    private FaultScenarios() {
    }

    static LoadOptions options(ProcessCluster cluster, String prefix, String mode, Duration duration) {
        String targets = String.join(",", cluster.urls().stream().map(Object::toString).toList());
        return LoadOptions.parse("--targets", targets, "--accounts", "100", "--duration", duration.toSeconds() + "s",
                "--mode", mode, "--retries", "20%", "--transfers", "25%", "--concurrency", "8", "--prefix", prefix,
                "--attempt-timeout", "3s", "--give-up", "45s", "--settle", "45s");
    }

    /**
     * Opens the accounts, drives the load while {@code fault} runs {@code faultAfter} into it, waits for the cluster to
     * be safe with {@code membersAfter} members, and asserts the verdict passes. The tool's output goes to stdout.
     */
    static Verification.Verdict run(ProcessCluster cluster, LoadOptions options, Duration faultAfter, Fault fault,
                                    int membersAfter) throws Exception {
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
        // Timing of the injection, not of an assertion: the fault lands while the load runs.
        TimeUnit.MILLISECONDS.sleep(faultAfter.toMillis());
        fault.inject();
        load.get(options.duration().toSeconds() + options.giveUp().toSeconds() + 60, TimeUnit.SECONDS);
        cluster.awaitSafe(membersAfter);
        Verification.Verdict verdict = workload.settleAndVerify();
        verdict.failures().forEach(f -> out.println("  " + f));
        out.println(options.prefix() + ": " + verdict.summary());
        assertTrue(verdict.pass(), () -> verdict.summary() + " " + verdict.failures());
        assertTrue(verdict.acknowledged() > 0, "the load got answers");
        return verdict;
    }
}
