package io.partita.bench.peers;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The peers tool's command line. Defaults: every system, 100,000 (spread) then 16 (hot) accounts, 16 client
 * threads, 15 s of warm-up and 20 s measured per trial, 55% debits of 1 to 100 on accounts opened with 100 and an
 * overdraft limit of 100, 2% repeats; the servers where {@code benchmarks/peers.sh} starts them (its {@code PEERS_*}
 * variables when set).
 */
record Options(List<Peer> systems, List<Integer> accounts, Trial.Settings settings, String pgUrl, String redisHost,
               int redisPort, int redisAofPort, Path partitaJar, Path logs, Path out) {

    static final int MAX_HTTP_ACCOUNTS = 100_000;

    static final String USAGE = """
            usage: peers [--systems a,b,...] [--accounts 100000,16] [--threads 16] [--seconds 20] [--warmup 15]
                         [--warmup-max 240] [--debit-share 0.55] [--repeat-share 0.02] [--opening 100]
                         [--overdraft 100]
                         [--out benchmarks/results/peers-YYYYMMDD-HHMM] [--partita-jar app/target/partita.jar]
                         [--logs benchmarks/target/peers-logs] [--pg-url jdbc:postgresql://...]
                         [--redis-host 127.0.0.1] [--redis-port 56379] [--redis-aof-port 56380]
            systems: %s""".formatted(Peer.ids(List.of(Peer.values())));

    static Options parse(String[] args, Map<String, String> env) {
        List<Peer> systems = List.of(Peer.values());
        List<Integer> accounts = List.of(100_000, 16);
        int threads = 16;
        int seconds = 20;
        int warmup = 15;
        int warmupMax = 240;
        double debitShare = 0.55;
        double repeatShare = 0.02;
        long opening = 100;
        long overdraft = 100;
        String pgUrl = env.getOrDefault("PEERS_PG_URL", "jdbc:postgresql://127.0.0.1:"
                + env.getOrDefault("PEERS_PG_PORT", "55432") + "/postgres?user=partita");
        String redisHost = "127.0.0.1";
        int redisPort = Integer.parseInt(env.getOrDefault("PEERS_REDIS_PORT", "56379"));
        int redisAofPort = Integer.parseInt(env.getOrDefault("PEERS_REDIS_AOF_PORT", "56380"));
        Path jar = Path.of("app/target/partita.jar");
        Path logs = Path.of("benchmarks/target/peers-logs");
        Path out = Path.of("benchmarks/results/peers-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm")));
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[++i];
            switch (name) {
                case "--systems" -> systems = Arrays.stream(value.split(",")).map(Peer::of).toList();
                case "--accounts" -> {
                    List<Integer> parsed = new ArrayList<>();
                    for (String count : value.split(",")) {
                        parsed.add(positive(name, Integer.parseInt(count.trim())));
                    }
                    accounts = List.copyOf(parsed);
                }
                case "--threads" -> threads = positive(name, Integer.parseInt(value));
                case "--seconds" -> seconds = positive(name, Integer.parseInt(value));
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--warmup-max" -> warmupMax = Integer.parseInt(value);
                case "--debit-share" -> debitShare = share(name, Double.parseDouble(value));
                case "--repeat-share" -> repeatShare = share(name, Double.parseDouble(value));
                case "--opening" -> opening = Long.parseLong(value);
                case "--overdraft" -> overdraft = Long.parseLong(value);
                case "--out" -> out = Path.of(value);
                case "--partita-jar" -> jar = Path.of(value);
                case "--logs" -> logs = Path.of(value);
                case "--pg-url" -> pgUrl = value;
                case "--redis-host" -> redisHost = value;
                case "--redis-port" -> redisPort = Integer.parseInt(value);
                case "--redis-aof-port" -> redisAofPort = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        boolean http = systems.contains(Peer.PARTITA_HTTP_1) || systems.contains(Peer.PARTITA_HTTP_3)
                || systems.contains(Peer.PARTITA_HTTP_3_SPREAD);
        if (http && accounts.stream().anyMatch(count -> count > MAX_HTTP_ACCOUNTS)) {
            // The check reads every account back with one POST /sql, whose answer holds at most 100,000 rows.
            throw new IllegalArgumentException("the HTTP systems are checked for at most " + MAX_HTTP_ACCOUNTS
                    + " accounts");
        }
        if (warmup < 0 || warmupMax < 0 || opening < 0 || overdraft < 0) {
            throw new IllegalArgumentException(
                    "--warmup, --warmup-max, --opening and --overdraft must not be negative");
        }
        return new Options(systems, accounts, new Trial.Settings(threads, warmup, warmupMax, seconds, opening, overdraft,
                debitShare, repeatShare), pgUrl, redisHost, redisPort, redisAofPort, jar, logs, out);
    }

    private static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1");
        }
        return value;
    }

    private static double share(String name, double value) {
        if (value < 0 || value > 1) {
            throw new IllegalArgumentException(name + " must be between 0 and 1");
        }
        return value;
    }
}
