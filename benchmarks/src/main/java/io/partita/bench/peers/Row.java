package io.partita.bench.peers;

import java.util.List;
import java.util.Locale;

/**
 * One system's trial on one set of accounts: its figures, or why there are none.
 *
 * @param outcome null when the trial failed
 * @param failure null when it passed its check
 */
record Row(Peer peer, int accounts, Trial.Outcome outcome, String failure) {

    boolean passed() {
        return outcome != null;
    }

    double perCore() {
        return outcome.systemCores() > 0 ? outcome.txPerSecond() / outcome.systemCores() : Double.NaN;
    }

    /** "spread" or "hot", and the number of accounts. */
    static String caseName(int accounts) {
        return String.format(Locale.ROOT, "%s (%,d accounts)", accounts < 1_000 ? "hot" : "spread", accounts);
    }

    /** The baseline's passed row on the same accounts, or null. */
    Row baseline(List<Row> rows) {
        return rows.stream().filter(row -> row.peer == Peer.BASELINE && row.accounts == accounts && row.passed())
                .findFirst().orElse(null);
    }
}
