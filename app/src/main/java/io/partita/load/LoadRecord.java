package io.partita.load;

import io.partita.account.TxType;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the load tool knows at the end of a run: what it asked, what the cluster answered, and what it observed
 * afterwards. {@link Verification} is a pure function over these.
 */
final class LoadRecord {

    private LoadRecord() {
    }

    enum Kind { DEBIT, CREDIT, TRANSFER }

    /** The client's view of one operation's fate: a definite answer (200 or 422), or none before it gave up. */
    enum Outcome {
        /** 200: APPLIED for a transaction, COMPLETED for a transfer. */
        APPLIED,
        /** 422: REJECTED (a definite failure: it must not have changed anything). */
        REJECTED,
        /** No definite answer before the give-up deadline: the journal decides whether it was applied. */
        UNKNOWN,
        /**
         * An answer the API does not allow for this operation: a 404 for an account this run opened, a 409 for an id
         * only this run uses, another 4xx, or a 200 or 422 the tool could not read. A broken contract, so the check
         * fails on it; what the balance must show is still decided by the journal, as for UNKNOWN.
         */
        UNEXPECTED
    }

    /**
     * One operation the tool sent. For a transfer {@code account} is the source and {@code to} the destination.
     */
    record Op(Kind kind, String txId, String account, String to, long amount) {
        Op {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(txId);
            Objects.requireNonNull(account);
        }

        static Op debit(String txId, String account, long amount) {
            return new Op(Kind.DEBIT, txId, account, null, amount);
        }

        static Op credit(String txId, String account, long amount) {
            return new Op(Kind.CREDIT, txId, account, null, amount);
        }

        static Op transfer(String txId, String from, String to, long amount) {
            return new Op(Kind.TRANSFER, txId, from, to, amount);
        }

        /** The journal id of a transfer's debit of its source (transfer/Transfer.java). */
        String transferOut() {
            return "transfer-out/" + txId;
        }

        String transferIn() {
            return "transfer-in/" + account + "/" + txId;
        }

        String transferRefund() {
            return "transfer-refund/" + txId;
        }
    }

    /**
     * @param balance   the balance the answer reported (for a transfer, {@code fromBalance}); null when unknown
     * @param toBalance a transfer's {@code toBalance}, when answered
     * @param replayed  whether the answer carried {@code Idempotent-Replayed: true}
     * @param detail    for UNKNOWN and UNEXPECTED, what happened (the answer's body, or the error); else null
     */
    record Answer(Outcome outcome, int httpStatus, Long balance, Long toBalance, boolean replayed, String detail) {
        static final Answer UNKNOWN = new Answer(Outcome.UNKNOWN, 0, null, null);

        Answer(Outcome outcome, int httpStatus, Long balance, Long toBalance) {
            this(outcome, httpStatus, balance, toBalance, false, null);
        }

        /** No definite answer, because of {@code detail} (an error in the tool, or the last answer seen). */
        static Answer unknown(String detail) {
            return new Answer(Outcome.UNKNOWN, 0, null, null, false, detail);
        }

        static Answer unexpected(int httpStatus, String detail) {
            return new Answer(Outcome.UNEXPECTED, httpStatus, null, null, false, detail);
        }

        /** A definite answer: the node decided, and a replay must repeat it. */
        boolean definite() {
            return outcome == Outcome.APPLIED || outcome == Outcome.REJECTED;
        }

        /** Whether a replay answered the same as the first call: status and reported balances. */
        boolean sameAs(Answer other) {
            return outcome == other.outcome && httpStatus == other.httpStatus
                    && Objects.equals(balance, other.balance) && Objects.equals(toBalance, other.toBalance);
        }
    }

    record Result(Op op, Answer answer) {
    }

    /** A re-send of an answered operation with the same id and payload, and what it answered. */
    record Replay(Op op, Answer first, Answer again) {
    }

    record Opening(long balance, long overdraftLimit) {
    }

    /**
     * One line of an account's journal as {@code GET /accounts/{id}/transactions} shows it.
     *
     * @param merged whether a split-brain merge brought it from the other side: its balanceAfter is what its client
     *               was told there, not the balance this account reached with it
     */
    record Entry(String txId, String type, long amount, String status, long balanceAfter, boolean merged) {

        Entry(String txId, String type, long amount, String status, long balanceAfter) {
            this(txId, type, amount, status, balanceAfter, false);
        }

        boolean applied() {
            return "APPLIED".equals(status);
        }

        /** What it did to the balance when applied (the API spells the ledger's types by name). */
        long delta() {
            return TxType.valueOf(type).delta(amount);
        }
    }

    /**
     * @param journals   each account's journal, newest first, as read
     * @param truncated  accounts whose journal filled the read limit (older entries may be unseen)
     * @param conflicted accounts that report a merge conflict ({@code mergeConflicts} above 0): a split-brain merge
     *                   kept both sides' debits and left them below their overdraft limit (app/DESIGN.md, invariant 2)
     */
    record Observed(Map<String, Long> balances, Map<String, List<Entry>> journals, List<String> truncated,
                    Set<String> conflicted) {

        Observed(Map<String, Long> balances, Map<String, List<Entry>> journals, List<String> truncated) {
            this(balances, journals, truncated, Set.of());
        }
    }

    /** The record of a run, everything the verification needs from the client's side. */
    record Run(Map<String, Opening> opening, List<Result> results, List<Replay> replays) {
    }
}
