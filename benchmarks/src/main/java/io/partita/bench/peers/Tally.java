package io.partita.bench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client side's account of a run, and the check that a system holds exactly that: no figure is reported for a
 * run that lost, doubled or mis-answered anything.
 *
 * <p>Concurrency: {@link #first} and {@link #repeat} are called by every client thread at once (adders);
 * {@link #verify} once, from the main thread, after every client thread has finished.
 *
 * <p>What is checked against a system's {@link ServerState}:
 * <ul>
 *   <li>every account is there, and the sum of balances is the opening sum plus the amounts the clients were told
 *       were applied (a transaction applied twice, or lost, changes it);</li>
 *   <li>the journal has one row per transaction id the clients sent, of which as many rejected as the clients were
 *       told, and its applied amounts add up to what the clients were told;</li>
 *   <li>no account's balance differs from its opening balance plus its own applied journal rows;</li>
 *   <li>every repeat was answered with its first answer (applied or not, and the same balance), and was not
 *       answered as a new transaction where the system says which it is.</li>
 * </ul>
 */
final class Tally {

    private final LongAdder transactions = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder applied = new LongAdder();
    private final LongAdder repeats = new LongAdder();
    private final LongAdder badReplays = new LongAdder();

    /** A new transaction's answer; throws if the system called it a replay (its id is new). */
    void first(Tx tx, Answer answer) {
        if (answer.replay() == Answer.Replay.REPLAYED) {
            badReplays.increment();
            throw new IllegalStateException("New transaction " + tx + " was answered as a replay: " + answer);
        }
        transactions.increment();
        if (answer.applied()) {
            applied.add(tx.amount());
        } else {
            rejected.increment();
        }
    }

    /** A repeat's answer, against its first answer; throws if it differs or the system called it new. */
    void repeat(Tx tx, Answer answer, Answer first) {
        repeats.increment();
        if (answer.replay() == Answer.Replay.FIRST || answer.applied() != first.applied()
                || answer.balance() != first.balance()) {
            badReplays.increment();
            throw new IllegalStateException("Repeat of " + tx + " answered " + answer + ", first answer " + first);
        }
    }

    long transactions() {
        return transactions.sum();
    }

    long rejected() {
        return rejected.sum();
    }

    long applied() {
        return applied.sum();
    }

    long repeats() {
        return repeats.sum();
    }

    /**
     * Compares the system's state with this account of the run.
     *
     * @return a one-line summary of what was checked
     * @throws IllegalStateException naming every difference
     */
    String verify(ServerState state, int accounts) {
        List<String> problems = new ArrayList<>();
        if (state.accounts() != accounts) {
            problems.add(String.format(Locale.ROOT, "%,d accounts, expected %,d", state.accounts(), accounts));
        }
        if (state.balanceSum() != state.openingSum() + applied()) {
            problems.add(String.format(Locale.ROOT, "balances sum to %,d, expected opening %,d + applied %,d",
                    state.balanceSum(), state.openingSum(), applied()));
        }
        if (state.journalRows() != transactions()) {
            problems.add(String.format(Locale.ROOT, "%,d journal rows, expected one per transaction: %,d",
                    state.journalRows(), transactions()));
        }
        if (state.journalRejected() != rejected()) {
            problems.add(String.format(Locale.ROOT, "%,d rejected in the journal, clients were told %,d",
                    state.journalRejected(), rejected()));
        }
        if (state.journalApplied() != applied()) {
            problems.add(String.format(Locale.ROOT, "the journal's applied amounts sum to %,d, clients were told %,d",
                    state.journalApplied(), applied()));
        }
        if (state.mismatchedAccounts() != 0) {
            problems.add(String.format(Locale.ROOT, "%,d accounts not equal to opening + their applied journal rows",
                    state.mismatchedAccounts()));
        }
        if (badReplays.sum() != 0) {
            problems.add(badReplays.sum() + " repeats not answered with their first answer");
        }
        String figures = String.format(Locale.ROOT, "%,d transactions (%,d rejected), %,d repeats; balances %,d = "
                        + "opening %,d + applied %,d; journal %,d rows", transactions(), rejected(), repeats(),
                state.balanceSum(), state.openingSum(), applied(), state.journalRows());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("CORRECTNESS CHECK FAILED: " + String.join("; ", problems) + " ("
                    + figures + ")");
        }
        return "checked: " + figures;
    }
}
