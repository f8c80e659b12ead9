package io.partita.account;

import java.util.function.Function;

/**
 * The rules of a transaction, as a pure function of an account and a request. Every path decides with it: the
 * partitioned path inside {@link ApplyTransactions} on the partition thread, the locked path under a FencedLock, jobs
 * in their own entry processor. It reads no clock and draws no random number, so re-running it after a retry or a
 * failover gives the same answer.
 */
public final class Ledger {

    /** The largest amount one transaction may move: 10^15 minor units. */
    public static final String MAX_AMOUNT_TEXT = "1000000000000000";
    public static final long MAX_AMOUNT = Long.parseLong(MAX_AMOUNT_TEXT);
    /** The largest balance or overdraft limit an account may hold: 10^18 minor units, far from overflow. */
    public static final String MAX_BALANCE_TEXT = "1000000000000000000";
    public static final long MAX_BALANCE = Long.parseLong(MAX_BALANCE_TEXT);

    private Ledger() {
    }

    /**
     * What the request does to the account.
     *
     * @param outcome  the answer for the caller
     * @param recorded the entry to record (the account's next seq), or null when nothing changes (a replay or a
     *                 conflict)
     */
    public record Decision(TxOutcome outcome, JournalEntry recorded) {

        /** The account after the decision: with the recorded entry, or unchanged. */
        public Account apply(Account account) {
            return recorded == null ? account : account.record(recorded);
        }
    }

    /**
     * Checks for a duplicate, checks funds and limits, and records the outcome, rejections included.
     *
     * <p>A txId is looked for in the account's tail first and then, through {@code journaled}, in its journal: an entry
     * leaves the tail only once the journal holds it, so a retry, however late within the retention, is found in one or
     * the other and never applied twice.
     *
     * @param journaled the entry the account's journal holds under a txId, or null
     */
    public static Decision decide(String accountId, Account account, TxRequest request,
                                  Function<String, JournalEntry> journaled) {
        JournalEntry previous = account.recorded(accountId, request.txId());
        if (previous == null) {
            previous = journaled.apply(request.txId());
        }
        if (previous != null) {
            return new Decision(previous.sameRequestAs(request)
                    ? TxOutcome.replayed(previous) : TxOutcome.conflict(previous), null);
        }
        long after = Math.addExact(account.balance(), request.type().delta(request.amount()));
        boolean withinLimits = after >= -account.overdraftLimit() && after <= MAX_BALANCE;
        boolean allowed = withinLimits || !request.type().refusable();
        JournalEntry entry = new JournalEntry(accountId, request.txId(), request.type(), request.amount(),
                allowed ? TxStatus.APPLIED : TxStatus.REJECTED, allowed ? after : account.balance(), request.at(),
                account.version() + 1, request.ref());
        return new Decision(TxOutcome.recorded(entry), entry);
    }
}
