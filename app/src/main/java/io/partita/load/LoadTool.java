package io.partita.load;

import java.io.PrintStream;

/**
 * {@code java -jar partita.jar load ...}: puts load on running nodes through the Java client and checks what they
 * acknowledged. Runs without the Micronaut context (Application dispatches here before starting it). Exit status 0
 * for PASS; 2 for bad arguments or accounts it could not open (nothing was judged); 1 for everything else: a FAIL, or a
 * run that could not be judged after it started (the final state could not be read, an error in the tool).
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
        try (Workload workload = new Workload(options, out)) {
            return run(options, workload, out);
        }
    }

    private static int run(LoadOptions options, Workload workload, PrintStream out) {
        try {
            out.printf("opening %d accounts (prefix %s) on %s%n", options.accounts(), options.prefix(),
                    options.targets());
            workload.open();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted while opening accounts");
            return 2;
        } catch (RuntimeException e) {
            out.println("could not open the accounts: " + e.getMessage());
            return 2;
        }
        try {
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
            out.println("FAIL: interrupted after " + workload.opsSent() + " operations; nothing was judged");
            return 1;
        } catch (RuntimeException e) {
            // Accounts were opened and operations sent: a run that cannot be judged is not a bad command line.
            out.println("FAIL: the run could not be judged after " + workload.opsSent() + " operations: " + e);
            return 1;
        }
    }
}
