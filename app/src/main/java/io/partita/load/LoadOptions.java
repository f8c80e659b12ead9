package io.partita.load;

import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load tool's command line: {@code load --targets URL,URL --accounts N --duration 60s --mode partitioned
 * --retries 20% [--transfers 20%] [--concurrency 32] [--prefix NAME] [--attempt-timeout 5s] [--give-up 30s]
 * [--settle 60s]}.
 *
 * @param retryShare     the share of answered operations re-sent with the same id to check the replay
 * @param transferShare  the share of operations that are transfers; the rest are debits and credits, half each
 * @param attemptTimeout how long one HTTP attempt may take before the next target is tried
 * @param giveUp         how long an operation is retried before it is recorded as "unknown outcome"
 * @param settle         how long the final check waits for unfinished transfers to be completed by recovery
 */
record LoadOptions(List<URI> targets, int accounts, Duration duration, String mode, double retryShare,
                   double transferShare, int concurrency, String prefix, Duration attemptTimeout, Duration giveUp,
                   Duration settle) {

    static final String USAGE = "usage: java -jar partita.jar load --targets http://host:port[,...] [--accounts 1000]"
            + " [--duration 60s] [--mode partitioned|locked] [--retries 20%] [--transfers 20%] [--concurrency 32]"
            + " [--prefix NAME] [--attempt-timeout 5s] [--give-up 30s] [--settle 60s]";

    static LoadOptions parse(String... args) {
        List<URI> targets = new ArrayList<>();
        int accounts = 1000;
        Duration duration = Duration.ofSeconds(60);
        String mode = "partitioned";
        double retries = 0.2;
        double transfers = 0.2;
        int concurrency = 32;
        String prefix = "load-" + Long.toString(System.currentTimeMillis(), 36);
        Duration attemptTimeout = Duration.ofSeconds(5);
        Duration giveUp = Duration.ofSeconds(30);
        Duration settle = Duration.ofSeconds(60);
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[++i];
            switch (name) {
                case "--targets" -> {
                    for (String t : value.split(",")) {
                        if (!t.isBlank()) {
                            targets.add(URI.create(t.strip().replaceAll("/+$", "")));
                        }
                    }
                }
                case "--accounts" -> accounts = Integer.parseInt(value);
                case "--duration" -> duration = duration(value);
                case "--mode" -> mode = value.toLowerCase(Locale.ROOT);
                case "--retries" -> retries = share(value);
                case "--transfers" -> transfers = share(value);
                case "--concurrency" -> concurrency = Integer.parseInt(value);
                case "--prefix" -> prefix = value;
                case "--attempt-timeout" -> attemptTimeout = duration(value);
                case "--give-up" -> giveUp = duration(value);
                case "--settle" -> settle = duration(value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("--targets is required");
        }
        if (accounts < 2 || concurrency < 1) {
            throw new IllegalArgumentException("--accounts must be at least 2 and --concurrency at least 1");
        }
        if (!mode.equals("partitioned") && !mode.equals("locked")) {
            throw new IllegalArgumentException("--mode must be partitioned or locked");
        }
        if (!prefix.matches("[A-Za-z0-9._:-]{1,24}")) {
            throw new IllegalArgumentException("--prefix must be 1 to 24 characters of [A-Za-z0-9._:-]");
        }
        return new LoadOptions(List.copyOf(targets), accounts, duration, mode, retries, transfers, concurrency,
                prefix, attemptTimeout, giveUp, settle);
    }

    /**
     * {@code 60s}, {@code 2m}, {@code 500ms}, or an ISO-8601 duration ({@code PT30S}, {@code pt1m}). The ISO form is
     * recognised by its leading P before the suffixes are tried: {@code PT30S} also ends in "s".
     */
    static Duration duration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t);
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // Reported below with the text as given, instead of the parser's message about a fragment of it.
        }
        throw new IllegalArgumentException("not a duration: " + text + " (use 90s, 2m, 500ms or PT30S)");
    }

    /** {@code 20%} or {@code 0.2}. */
    static double share(String text) {
        String t = text.strip();
        double share = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100
                : Double.parseDouble(t);
        if (share < 0 || share > 1) {
            throw new IllegalArgumentException("a share must be between 0% and 100%: " + text);
        }
        return share;
    }
}
