package io.partita.bench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The results as a Markdown table (the README's format, to paste), as JSON and as CSV. Ratios are each system's
 * figure divided by Partita's on 1 member in-process on the same accounts: below 1, the system is slower.
 */
final class Report {

    private Report() {
    }

    static String markdown(List<Row> rows) {
        StringBuilder table = new StringBuilder();
        table.append("| accounts | system | tx/s | p50 ms | p99 ms | system cores | tx/s per system core "
                + "| client cores | tx/s vs Partita 1 | per core vs Partita 1 | rejected |\n");
        table.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            if (!row.passed()) {
                table.append(String.format(Locale.ROOT, "| %s | %s | FAILED: %s |||||||||%n",
                        Row.caseName(row.accounts()), row.peer().label, row.failure().replace('|', '/')
                                .replace('\n', ' ')));
                continue;
            }
            Trial.Outcome o = row.outcome();
            Row base = row.baseline(rows);
            table.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f | %.2f | %.2f | %,.0f | %.2f | %s | %s "
                            + "| %.1f%% |%n", Row.caseName(row.accounts()), row.peer().label, o.txPerSecond(),
                    o.p50Ms(), o.p99Ms(), o.systemCores(), row.perCore(), o.clientCores(),
                    base == null ? "n/a" : String.format(Locale.ROOT, "%.2f", o.txPerSecond()
                            / base.outcome().txPerSecond()),
                    base == null ? "n/a" : String.format(Locale.ROOT, "%.2f", row.perCore() / base.perCore()),
                    100.0 * o.rejected() / Math.max(1, o.transactions())));
        }
        return table.toString();
    }

    static String csv(List<Row> rows) {
        StringBuilder csv = new StringBuilder("accounts,system,tx_per_s,p50_ms,p99_ms,system_cores,"
                + "tx_per_s_per_system_core,client_cores,measured,seconds,transactions,rejected,repeats,retries,"
                + "vs_partita_1,per_core_vs_partita_1,failure\n");
        for (Row row : rows) {
            List<String> cells = new ArrayList<>(List.of(String.valueOf(row.accounts()), row.peer().id));
            if (row.passed()) {
                Trial.Outcome o = row.outcome();
                Row base = row.baseline(rows);
                cells.addAll(List.of(number(o.txPerSecond()), number(o.p50Ms()), number(o.p99Ms()),
                        number(o.systemCores()), number(row.perCore()), number(o.clientCores()),
                        String.valueOf(o.measured()), number(o.elapsedSeconds()), String.valueOf(o.transactions()),
                        String.valueOf(o.rejected()), String.valueOf(o.repeats()), String.valueOf(o.retries()),
                        base == null ? "" : number(o.txPerSecond() / base.outcome().txPerSecond()),
                        base == null ? "" : number(row.perCore() / base.perCore()), ""));
            } else {
                for (int i = 0; i < 14; i++) {
                    cells.add("");
                }
                cells.add('"' + row.failure().replace("\"", "\"\"") + '"');
            }
            csv.append(String.join(",", cells)).append('\n');
        }
        return csv.toString();
    }

    static String json(Map<String, String> about, List<Row> rows) {
        StringJoiner top = new StringJoiner(",\n  ", "{\n  ", "\n}\n");
        about.forEach((key, value) -> top.add(quote(key) + ": " + quote(value)));
        StringJoiner results = new StringJoiner(",\n    ", "[\n    ", "\n  ]");
        for (Row row : rows) {
            StringJoiner fields = new StringJoiner(", ", "{", "}");
            fields.add("\"accounts\": " + row.accounts());
            fields.add("\"system\": " + quote(row.peer().id));
            fields.add("\"label\": " + quote(row.peer().label));
            if (row.passed()) {
                Trial.Outcome o = row.outcome();
                Row base = row.baseline(rows);
                fields.add("\"txPerSecond\": " + number(o.txPerSecond()));
                fields.add("\"p50Ms\": " + number(o.p50Ms()));
                fields.add("\"p99Ms\": " + number(o.p99Ms()));
                fields.add("\"systemCores\": " + number(o.systemCores()));
                fields.add("\"txPerSecondPerSystemCore\": " + number(row.perCore()));
                fields.add("\"clientCores\": " + number(o.clientCores()));
                fields.add("\"measured\": " + o.measured());
                fields.add("\"seconds\": " + number(o.elapsedSeconds()));
                fields.add("\"transactions\": " + o.transactions());
                fields.add("\"rejected\": " + o.rejected());
                fields.add("\"repeats\": " + o.repeats());
                fields.add("\"retries\": " + o.retries());
                if (base != null) {
                    fields.add("\"vsPartita1\": " + number(o.txPerSecond() / base.outcome().txPerSecond()));
                    fields.add("\"perCoreVsPartita1\": " + number(row.perCore() / base.perCore()));
                }
                fields.add("\"check\": " + quote(o.checked()));
                fields.add("\"server\": " + quote(o.described()));
            } else {
                fields.add("\"failure\": " + quote(row.failure()));
            }
            results.add(fields.toString());
        }
        top.add("\"results\": " + results);
        return top.toString();
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null";
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
