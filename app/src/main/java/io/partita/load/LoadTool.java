package io.partita.load;

import java.io.PrintStream;

/**
 * {@code java -jar partita.jar load ...}: puts load on running nodes over HTTP and checks what they acknowledged. Runs
 * without the Micronaut context (Application dispatches here before starting it). Exit status 0 for PASS, 1 for
 * FAIL, 2 for bad arguments or a cluster it could not set up on.
 */
public final class LoadTool {

    private LoadTool() {
    }

    public static int run(String[] args, PrintStream out) {
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (RuntimeException e) {
            out.println(e.getMessage());
            out.println(LoadOptions.USAGE);
            return 2;
        }
        try {
            Workload workload = new Workload(options, out);
            out.printf("opening %d accounts (prefix %s) on %s%n", options.accounts(), options.prefix(),
                    options.targets());
            workload.open();
            out.printf("driving %s of %s load from %d threads: %.0f%% transfers, %.0f%% of answers replayed%n",
                    options.duration(), options.mode(), options.concurrency(), options.transferShare() * 100,
                    options.retryShare() * 100);
            workload.drive();
            out.printf("sent %d operations; reading balances and journals back%n", workload.opsSent());
            Verification.Verdict verdict = workload.settleAndVerify();
            verdict.failures().forEach(f -> out.println("  " + f));
            out.println(verdict.summary());
            return verdict.pass() ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted");
            return 2;
        } catch (RuntimeException e) {
            out.println("load failed: " + e.getMessage());
            return 2;
        }
    }
}
