package io.partita.bench;

import io.partita.bench.peers.HttpClients;
import io.partita.bench.peers.Peers;
import io.partita.bench.store.StoreFootprint;

import java.util.Arrays;

/**
 * The benchmark jar's entry point: {@code java -jar benchmarks.jar TOOL args...} runs one of Partita's measurement
 * tools, anything else is JMH's own command line ({@code java -jar benchmarks.jar LockVsPartition -p members=3}).
 *
 * <p>Why one entry point: started with {@code -jar}, the JVM grants the module access this jar's manifest names
 * ({@code Add-Opens}, {@code Add-Exports}), exactly as it does for a node started with {@code java -jar partita.jar}.
 * Started with {@code -cp}, it does not: Hazelcast then warns and falls back to slower ways (its selector without
 * the {@code sun.nio.ch} internals, among others), and the harness would measure a node nobody ships. JMH's forks do
 * not read the manifest; the benchmarks pass the same flags to them in {@code @Fork(jvmArgsAppend)}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String tool = args.length == 0 ? "" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (tool) {
            case "throughput" -> Throughput.main(rest);
            case "footprint" -> Footprint.main(rest);
            case "profile" -> Profile.main(rest);
            case "chart" -> Chart.main(rest);
            case "peers" -> Peers.main(rest);
            case "http-clients" -> HttpClients.main(rest);
            case "store" -> StoreFootprint.main(rest);
            default -> org.openjdk.jmh.Main.main(args);
        }
    }

    /**
     * Whether this JVM grants Hazelcast the module access a node's manifest grants: the packages that change how it
     * runs (its networking, its memory management) rather than only what its metrics can read.
     */
    static boolean moduleAccessAsShipped() {
        Module base = Object.class.getModule();
        Module self = Main.class.getModule();
        return base.isOpen("java.lang", self) && base.isOpen("sun.nio.ch", self)
                && base.isExported("jdk.internal.ref", self);
    }
}
