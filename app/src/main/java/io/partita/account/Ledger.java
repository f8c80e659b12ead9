package io.partita.account;

import java.util.function.Function;

/**
 * The rules of a transaction, as a pure function of an account and a request. Both processing paths decide with it:
 * the partitioned path inside {@link ApplyTransaction} on the partition thread, the locked path under a FencedLock.
 * It reads no clock and draws no random number, so re-running it after a retry or a failover gives the same answer.
 */
public final class Ledger {

    /** How many recent entries an account keeps in itself; older ones are found in the journal. */
    public static final int RECENT = 8;
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
     * @param outcome the answer for the caller
     * @param account the account to store, or null when nothing changes (a replay or a conflict)
     * @param evicted the recent entry the stored account no longer holds, or null; it must stay findable in the
     *                journal so that a late retry of it is still recognised
     */
    public record Decision(TxOutcome outcome, Account account, JournalEntry evicted) {
    }

    /**
     * Checks for a duplicate, checks funds and limits, and records the outcome.
     *
     * @param olderEntries finds an entry that is no longer among the account's recent ones (the journal)
     */
    public static Decision decide(Account account, TxRequest request, Function<JournalKey, JournalEntry> olderEntries) {
        JournalEntry previous = account.recent(request.txId());
        if (previous == null) {
            previous = olderEntries.apply(new JournalKey(account.id(), request.txId()));
        }
        if (previous != null) {
            TxOutcome answer = previous.sameRequestAs(request) ? TxOutcome.replayed(previous) : TxOutcome.conflict(previous);
            return new Decision(answer, null, null);
        }
        long after = Math.addExact(account.balance(), request.type().delta(request.amount()));
        boolean withinLimits = after >= -account.overdraftLimit() && after <= MAX_BALANCE;
        boolean allowed = withinLimits || !request.type().refusable();
        JournalEntry entry = new JournalEntry(account.id(), request.txId(), request.type(), request.amount(),
                allowed ? TxStatus.APPLIED : TxStatus.REJECTED, allowed ? after : account.balance(), request.at(),
                account.version() + 1, request.ref());
        JournalEntry evicted = account.recent().size() >= RECENT ? account.recent().get(0) : null;
        return new Decision(TxOutcome.recorded(entry), account.record(entry, RECENT), evicted);
    }
}
