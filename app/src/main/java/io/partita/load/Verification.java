package io.partita.load;

import io.partita.load.LoadRecord.Answer;
import io.partita.load.LoadRecord.Entry;
import io.partita.load.LoadRecord.Observed;
import io.partita.load.LoadRecord.Op;
import io.partita.load.LoadRecord.Opening;
import io.partita.load.LoadRecord.Outcome;
import io.partita.load.LoadRecord.Replay;
import io.partita.load.LoadRecord.Result;
import io.partita.load.LoadRecord.Run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a run against what the cluster acknowledged: a pure function of the client's record and the observed
 * balances and journals, so it can be fed planted faults in a unit test.
 *
 * <p>The checks (app/DESIGN.md, "Invariants every change keeps"; app/README.md, "The API in brief"): every replay
 * answered as the first call did, with {@code Idempotent-Replayed: true}; no operation got an answer the API does not
 * allow for it (a 404 for an account the run opened, a 409 for an id only the run uses); every acknowledged id is in
 * the right journal exactly once with the acknowledged status; no definite failure (422) was applied; an operation
 * without an answer counts as the journal shows it (applied or not, never twice); no id appears twice in a journal and
 * no id the tool never sent appears at all (a stale or invented write); transfers are never half done; each balance
 * equals its opening plus the deltas so derived, and the journal read from the opening balance agrees with each line's
 * balance after (but for a line a split-brain merge brought from the other side, which keeps its client's answer) and
 * with the balance; the total is conserved (changed only by debits and credits); no balance is below its overdraft
 * limit unless the account reports a merge conflict.
 *
 * <p>With split-brain protection off ({@code bothSidesDecide}), both sides of a split decide writes, so an id a
 * client retried across the cut can be decided on each side, and the merge keeps one side's line for it: the client
 * may have heard two answers, and the journal holds one of them. Such a run is judged on what the merge must keep
 * there: an operation answered 200 is applied (else it is lost), no id is applied twice in a journal, balances agree
 * with their journals, money is conserved, and no transfer is half done. A replay that did not repeat the first answer
 * is counted (as decided on both sides), not failed; an acknowledged balance may be the other side's; and a 422 is
 * one side's answer, so the journal decides, as for an operation without an answer.
 */
final class Verification {

    /** At most this many failures are listed; the count is always exact. */
    static final int LISTED = 20;

    /**
     * @param acknowledged   operations answered 200
     * @param unknown        operations without a definite answer, {@code unknownApplied} of them applied
     * @param unexpected     operations answered with a status the API does not allow for them (each a failure)
     * @param decidedTwice   with both sides deciding, replays that did not repeat the first answer (0 otherwise:
     *                       each is a failure)
     */
    record Verdict(boolean pass, int failureCount, List<String> failures, long expectedTotal, long observedTotal,
                   int acknowledged, int rejected, int unknown, int unknownApplied, int unexpected,
                   int decidedTwice) {

        String summary() {
            return (pass ? "PASS" : "FAIL") + ": " + acknowledged + " acknowledged, " + rejected + " rejected, "
                    + unknown + " unknown outcome (" + unknownApplied + " applied), "
                    + (unexpected == 0 ? "" : unexpected + " unexpected answer(s), ")
                    + (decidedTwice == 0 ? "" : decidedTwice + " replay(s) decided again on the other side, ")
                    + "total " + observedTotal
                    + " (expected " + expectedTotal + ")" + (pass ? "" : ", " + failureCount + " failure(s)");
        }
    }

    private final List<String> failures = new ArrayList<>();
    private final boolean bothSidesDecide;
    private int failureCount;
    private int decidedTwice;

    private Verification(boolean bothSidesDecide) {
        this.bothSidesDecide = bothSidesDecide;
    }

    static Verdict verify(Run run, Observed observed) {
        return verify(run, observed, false);
    }

    /** @param bothSidesDecide split-brain protection is off: both sides of a split decide writes (see above) */
    static Verdict verify(Run run, Observed observed, boolean bothSidesDecide) {
        return new Verification(bothSidesDecide).check(run, observed);
    }

    private Verdict check(Run run, Observed observed) {
        for (String account : observed.truncated()) {
            fail("journal of " + account + " is longer than could be read: cannot check it (use more accounts)");
        }
        checkReplays(run.replays());

        Map<String, Map<String, List<Entry>>> byId = indexJournals(observed);
        Map<String, Long> expected = new HashMap<>();
        run.opening().forEach((account, opening) -> expected.put(account, opening.balance()));
        Map<String, Boolean> sent = new HashMap<>();
        long externalDelta = 0;
        int acknowledged = 0;
        int rejected = 0;
        int unknown = 0;
        int unknownApplied = 0;
        int unexpected = 0;

        for (Result result : run.results()) {
            Op op = result.op();
            Outcome outcome = result.answer().outcome();
            Answer answer = bothSidesDecide ? oneSide(result.answer()) : result.answer();
            switch (outcome) {
                case APPLIED -> acknowledged++;
                case REJECTED -> rejected++;
                case UNKNOWN -> unknown++;
                case UNEXPECTED -> {
                    unexpected++;
                    fail(op.kind() + " " + op.txId() + describe(op) + " was answered " + result.answer().httpStatus()
                            + ", which the API does not allow here: " + result.answer().detail());
                }
            }
            boolean applied;
            if (op.kind() == LoadRecord.Kind.TRANSFER) {
                sent.put(op.account() + " " + op.transferOut(), true);
                sent.put(op.account() + " " + op.transferRefund(), true);
                sent.put(op.to() + " " + op.transferIn(), true);
                applied = checkTransfer(op, answer, byId, expected);
            } else {
                sent.put(op.account() + " " + op.txId(), true);
                applied = checkTransaction(op, answer, byId, expected);
                if (applied) {
                    externalDelta += op.kind() == LoadRecord.Kind.CREDIT ? op.amount() : -op.amount();
                }
            }
            if (outcome == Outcome.UNKNOWN && applied) {
                unknownApplied++;
            }
        }

        checkJournals(observed, run.opening(), sent);
        long observedTotal = 0;
        long openingTotal = 0;
        for (Map.Entry<String, Opening> e : run.opening().entrySet()) {
            String account = e.getKey();
            Long balance = observed.balances().get(account);
            openingTotal += e.getValue().balance();
            if (balance == null) {
                fail("account " + account + " was not found");
                continue;
            }
            observedTotal += balance;
            if (balance.longValue() != expected.get(account)) {
                fail("account " + account + " has balance " + balance + ", expected " + expected.get(account)
                        + " from its opening and the acknowledged operations");
            }
            if (balance < -e.getValue().overdraftLimit() && !observed.conflicted().contains(account)) {
                fail("account " + account + " is at " + balance + ", below its overdraft limit "
                        + e.getValue().overdraftLimit() + ", and reports no merge conflict");
            }
            checkChain(account, e.getValue().balance(), observed.journals().getOrDefault(account, List.of()),
                    balance);
        }
        long expectedTotal = openingTotal + externalDelta;
        if (observedTotal != expectedTotal) {
            fail("money is not conserved: total " + observedTotal + ", expected " + expectedTotal);
        }
        return new Verdict(failureCount == 0, failureCount, List.copyOf(failures), expectedTotal, observedTotal,
                acknowledged, rejected, unknown, unknownApplied, unexpected, decidedTwice);
    }

    /**
     * What a definite answer proves when both sides decide: one side's decision, where the other side may have decided
     * the same id too and the merge kept that one. A 200 must still be applied, with either side's balance; a 422 is
     * judged by the journal, as an operation without an answer is.
     */
    private static Answer oneSide(Answer answer) {
        return switch (answer.outcome()) {
            case APPLIED -> new Answer(Outcome.APPLIED, answer.httpStatus(), null, null, answer.replayed(),
                    answer.detail());
            case REJECTED -> Answer.unknown("422 from one side of a split; the other side may have applied it");
            case UNKNOWN, UNEXPECTED -> answer;
        };
    }

    /** A replay without an answer proves nothing; any other must repeat the first answer and say it is a replay. */
    private void checkReplays(List<Replay> replays) {
        for (Replay replay : replays) {
            Answer again = replay.again();
            if (again.outcome() == Outcome.UNKNOWN) {
                continue;
            }
            if (bothSidesDecide && (!again.sameAs(replay.first()) || !again.replayed())) {
                decidedTwice++;
            } else if (!again.sameAs(replay.first())) {
                fail("replay of " + replay.op().txId() + " answered " + again + ", the first call " + replay.first());
            } else if (!again.replayed()) {
                fail("replay of " + replay.op().txId() + " answered as the first call but without the header "
                        + "Idempotent-Replayed: true");
            }
        }
    }

    private static String describe(Op op) {
        return op.kind() == LoadRecord.Kind.TRANSFER ? " from " + op.account() + " to " + op.to() : " on "
                + op.account();
    }

    /** Returns whether the transaction is applied according to the journal (after checking it against the answer). */
    private boolean checkTransaction(Op op, Answer answer, Map<String, Map<String, List<Entry>>> byId,
                                     Map<String, Long> expected) {
        List<Entry> entries = entries(byId, op.account(), op.txId());
        if (entries.size() > 1) {
            return false; // reported by checkJournals as a duplicate
        }
        Entry entry = entries.isEmpty() ? null : entries.get(0);
        switch (answer.outcome()) {
            case APPLIED -> {
                if (entry == null || !entry.applied()) {
                    fail(op.kind() + " " + op.txId() + " on " + op.account() + " was acknowledged APPLIED but the "
                            + "journal has " + (entry == null ? "no entry" : entry.status()));
                } else if (answer.balance() != null && entry.balanceAfter() != answer.balance()) {
                    fail(op.txId() + " was acknowledged with balance " + answer.balance() + " but the journal says "
                            + entry.balanceAfter());
                }
            }
            case REJECTED -> {
                if (entry == null || entry.applied()) {
                    fail(op.kind() + " " + op.txId() + " on " + op.account() + " was answered 422 REJECTED but the "
                            + "journal has " + (entry == null ? "no entry" : entry.status()));
                }
            }
            case UNKNOWN, UNEXPECTED -> {
            }
        }
        // What the balance must show: the acknowledgement where there is one, the journal where there is none.
        boolean applied = switch (answer.outcome()) {
            case APPLIED -> true;
            case REJECTED -> false;
            case UNKNOWN, UNEXPECTED -> entry != null && entry.applied();
        };
        if (applied) {
            long delta = op.kind() == LoadRecord.Kind.CREDIT ? op.amount() : -op.amount();
            expected.merge(op.account(), delta, Long::sum);
        }
        return applied;
    }

    /** Returns whether the transfer moved money according to the journals. */
    private boolean checkTransfer(Op op, Answer answer, Map<String, Map<String, List<Entry>>> byId,
                                  Map<String, Long> expected) {
        Entry out = single(byId, op.account(), op.transferOut());
        Entry in = single(byId, op.to(), op.transferIn());
        Entry refund = single(byId, op.account(), op.transferRefund());
        boolean debited = out != null && out.applied();
        boolean credited = in != null && in.applied();
        boolean refunded = refund != null && refund.applied();
        switch (answer.outcome()) {
            case APPLIED -> {
                if (!debited || !credited || refunded) {
                    fail("transfer " + op.txId() + " was acknowledged COMPLETED but the journals show debit="
                            + debited + " credit=" + credited + " refund=" + refunded);
                }
            }
            case REJECTED -> {
                if (credited || (debited && !refunded)) {
                    fail("transfer " + op.txId() + " was answered 422 REJECTED but the journals show debit="
                            + debited + " credit=" + credited + " refund=" + refunded);
                }
            }
            case UNKNOWN, UNEXPECTED -> {
                if (debited && !credited && !refunded) {
                    fail("transfer " + op.txId() + " is half done: its source was debited, nothing more");
                }
                if (credited && !debited) {
                    fail("transfer " + op.txId() + " credited its destination without debiting its source");
                }
            }
        }
        if (answer.outcome() == Outcome.APPLIED) {
            // What the balances must show follows the acknowledgement, whatever the journals say.
            debited = true;
            credited = true;
            refunded = false;
        } else if (answer.outcome() == Outcome.REJECTED) {
            debited = false;
            credited = false;
            refunded = false;
        }
        if (debited) {
            expected.merge(op.account(), -op.amount(), Long::sum);
        }
        if (credited) {
            expected.merge(op.to(), op.amount(), Long::sum);
        }
        if (refunded) {
            expected.merge(op.account(), op.amount(), Long::sum);
        }
        return debited && credited;
    }

    /** Every journal line: no id twice, no id the tool never sent, no balance after below the overdraft limit. */
    private void checkJournals(Observed observed, Map<String, Opening> opening, Map<String, Boolean> sent) {
        observed.journals().forEach((account, journal) -> {
            Map<String, Integer> seen = new HashMap<>();
            for (Entry entry : journal) {
                if (seen.merge(entry.txId(), 1, Integer::sum) == 2) {
                    fail(entry.txId() + " appears more than once in the journal of " + account);
                }
                if (!sent.containsKey(account + " " + entry.txId())) {
                    fail("the journal of " + account + " holds " + entry.txId() + ", which this run never sent");
                }
                Opening o = opening.get(account);
                if (o != null && entry.applied() && entry.balanceAfter() < -o.overdraftLimit()) {
                    fail(entry.txId() + " took " + account + " to " + entry.balanceAfter()
                            + ", below its overdraft limit");
                }
            }
        });
    }

    /**
     * The journal read oldest first from the opening balance: each line's balanceAfter is the opening plus the applied
     * lines up to it (except a line a merge brought from the other side of a split, which keeps what its client was
     * told), and the balance is the opening plus all of them. A balance change lost while its entry was kept (or the
     * reverse) breaks this.
     */
    private void checkChain(String account, long opening, List<Entry> newestFirst, long balance) {
        long running = opening;
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            Entry entry = newestFirst.get(i);
            if (entry.applied()) {
                running += entry.delta();
            }
            if (!entry.merged() && entry.balanceAfter() != running) {
                fail("the journal of " + account + " says " + entry.txId() + " left " + entry.balanceAfter()
                        + ", but its opening and the applied lines up to it make " + running);
                return;
            }
        }
        if (running != balance) {
            fail("account " + account + " has balance " + balance + " but its opening and its journal's applied lines "
                    + "make " + running);
        }
    }

    private static Map<String, Map<String, List<Entry>>> indexJournals(Observed observed) {
        Map<String, Map<String, List<Entry>>> byId = new HashMap<>();
        observed.journals().forEach((account, journal) -> {
            Map<String, List<Entry>> ids = new HashMap<>();
            for (Entry entry : journal) {
                ids.computeIfAbsent(entry.txId(), id -> new ArrayList<>()).add(entry);
            }
            byId.put(account, ids);
        });
        return byId;
    }

    private static List<Entry> entries(Map<String, Map<String, List<Entry>>> byId, String account, String txId) {
        return byId.getOrDefault(account, Map.of()).getOrDefault(txId, List.of());
    }

    private static Entry single(Map<String, Map<String, List<Entry>>> byId, String account, String txId) {
        List<Entry> entries = entries(byId, account, txId);
        return entries.isEmpty() ? null : entries.get(0);
    }

    private void fail(String failure) {
        failureCount++;
        if (failures.size() < LISTED) {
            failures.add(failure);
        }
    }
}
