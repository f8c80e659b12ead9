package io.partita.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The peers tool (issue 15): the same ledger workload against Partita and the systems a user would pick instead, in
 * one run, with the same client threads, accounts and mix, each run checked before it is reported.
 *
 * <pre>
 * bash benchmarks/peers.sh java -jar benchmarks/target/benchmarks.jar peers [options]
 * </pre>
 * {@code peers.sh} starts PostgreSQL and Redis, runs the command and stops them; the Partita systems need only
 * {@code app/target/partita.jar} (for the HTTP nodes). For each set of accounts ({@code --accounts}, default 100,000
 * then 16) and each system ({@code --systems}, see {@link Peer}), one {@link Trial}: a fresh ledger, warm-up,
 * measured window, correctness check. Writes {@code <out>.json}, {@code <out>.csv} and {@code <out>.svg} after every
 * trial and prints the table in the README's format at the end. A trial that fails (its check, a client's error, a
 * server that is not there) is reported as failed, the others still run, and the exit status is 1.
 *
 * <p>What runs where: the client threads, and for the in-process Partita systems the members too, run in this JVM;
 * PostgreSQL, Redis and the HTTP nodes are processes of their own on the same machine, sharing its cores.
 */
public final class Peers {

    private Peers() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && ("--help".equals(args[0]) || "-h".equals(args[0]))) {
            System.out.println(Options.USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args, System.getenv());
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        Map<String, String> about = about(options, args);
        about.forEach((key, value) -> System.out.println(key + ": " + value));
        List<Row> rows = new ArrayList<>();
        for (int accounts : options.accounts()) {
            for (Peer peer : options.systems()) {
                rows.add(trial(peer, accounts, options));
                write(options.out(), about, rows);
                System.gc();
            }
        }
        System.out.println();
        System.out.println(Report.markdown(rows));
        System.out.println("results: " + options.out() + ".json, .csv, .svg");
        boolean failed = rows.stream().anyMatch(row -> !row.passed());
        if (failed) {
            System.out.println("FAILED: " + rows.stream().filter(row -> !row.passed()).count() + " trial(s) did not "
                    + "pass; their rows say why");
        }
        // Micronaut, Hazelcast and the HTTP client leave threads that would keep the JVM alive.
        System.exit(failed ? 1 : 0);
    }

    private static Row trial(Peer peer, int accounts, Options options) {
        System.out.printf(Locale.ROOT, "%n%s, %s: %d threads, %d to %d s warm-up (until steady), %d s measured%n",
                peer.label, Row.caseName(accounts), options.settings().threads(), options.settings().warmupSeconds(),
                options.settings().warmupLimitSeconds(),
                options.settings().seconds());
        PeerLedger ledger = peer.ledger(options);
        try {
            Trial.Outcome outcome = Trial.run(ledger, accounts, options.settings(), peer.id);
            System.out.println("  " + outcome.described());
            System.out.println("  " + outcome.checked());
            System.out.printf(Locale.ROOT, "  %,.0f tx/s, p50 %.2f ms, p99 %.2f ms; system %.2f cores, client %.2f "
                            + "cores; %d retries%n", outcome.txPerSecond(), outcome.p50Ms(), outcome.p99Ms(),
                    outcome.systemCores(), outcome.clientCores(), outcome.retries());
            return new Row(peer, accounts, outcome, null);
        } catch (Exception e) {
            String failure = e.getMessage() == null ? e.toString() : e.getMessage();
            System.out.println("  FAILED: " + failure);
            e.printStackTrace(System.out);
            return new Row(peer, accounts, null, failure);
        } finally {
            try {
                ledger.close();
            } catch (Exception e) {
                System.out.println("  closing it failed: " + e);
            }
        }
    }

    private static void write(Path out, Map<String, String> about, List<Row> rows) throws IOException {
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(Path.of(out + ".json"), Report.json(about, rows));
        Files.writeString(Path.of(out + ".csv"), Report.csv(rows));
        Files.writeString(Path.of(out + ".svg"), SvgChart.draw(rows, "The same ledger on Partita, PostgreSQL and "
                + "Redis", about.get("workload") + "; " + about.get("machine")));
    }

    private static Map<String, String> about(Options options, String[] args) {
        Trial.Settings s = options.settings();
        Map<String, String> about = new LinkedHashMap<>();
        about.put("date", OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        about.put("command", "java -jar benchmarks/target/benchmarks.jar peers " + String.join(" ", args));
        about.put("machine", String.format(Locale.ROOT, "%d cores (%s), %d GiB", Runtime.getRuntime()
                .availableProcessors(), cpuModel(), memoryGiB()));
        about.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        about.put("workload", String.format(Locale.ROOT, "%d client threads, %d to %d s warm-up (until two %d s "
                        + "windows are within %.0f%% and the system's JIT compilers are idle) + %d s measured; %.0f%% debits of 1-%d, %.0f%% repeats; opening "
                        + "%d, overdraft limit %d", s.threads(), s.warmupSeconds(),
                s.warmupLimitSeconds(), Trial.STEADY_WINDOW_SECONDS,
                Trial.STEADY_TOLERANCE * 100, s.seconds(), s.debitShare() * 100, Mix.MAX_AMOUNT, s.repeatShare() * 100,
                s.opening(), s.overdraft()));
        about.put("systems", Peer.ids(options.systems()));
        about.put("cores", "system cores: CPU time (utime+stime from /proc) the system's processes spent in the "
                + "measured window / its length (PostgreSQL: the postmaster and all its children; Redis: "
                + "redis-server; HTTP: the node JVMs); in-process Partita: this JVM's CPU time minus the client "
                + "threads' own. Client cores: this JVM's (in-process: the client threads')");
        return about;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst().orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    private static long memoryGiB() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal"))
                    .map(line -> Long.parseLong(line.replaceAll("\\D", "")) >> 20).findFirst().orElse(0L);
        } catch (IOException e) {
            return 0;
        }
    }
}
