package io.partita.account;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The rules of a transaction, as a pure function of an account and a request. Both processing paths decide with it:
 * the partitioned path inside {@link ApplyTransaction} on the partition thread, the locked path under a FencedLock.
 * It reads no clock and draws no random number, so re-running it after a retry or a failover gives the same answer.
 */
public final class Ledger {

    /**
     * How many recent entries an account keeps in itself, the answers to fast retries; older ones are found in the
     * journal. An entry leaves the list only once the journal holds it (see {@link #decide}), so the list may be
     * longer for a while.
     */
    public static final int RECENT = 2;
    /**
     * How many transactions newer than an entry that is still missing from the journal may be recorded before the
     * decision names it for writing ({@link Decision#toJournal()}). The node that recorded an entry writes it to the
     * journal before it answers, so an entry is normally there within a network round trip; it is missing for longer
     * only when that node died in between, or on an account so hot that more transactions land in that round trip.
     */
    public static final int JOURNAL_SLACK = 4;
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
     * @param outcome   the answer for the caller
     * @param account   the account to store, or null when nothing changes (a replay or a conflict)
     * @param toJournal entries the stored account still holds because the journal does not have them yet, and which
     *                  have waited long enough that the caller should write them there (normally none)
     */
    public record Decision(TxOutcome outcome, Account account, List<JournalEntry> toJournal) {
    }

    /**
     * Checks for a duplicate, checks funds and limits, and records the outcome.
     *
     * <p>The recorded entry joins the account's recent list, and older entries leave it, but only those the journal
     * already holds ({@code journaled}): an entry is never in neither place, so a retry of it, however late, is
     * answered from one or the other and never applied twice, even when the node that recorded it died before
     * writing the journal and the account's owner dies right after. (On the owner the journal write of an entry
     * happened before this decision; its backup is sent before the account's, in order, on the same partition.)
     *
     * @param olderEntries finds an entry that is no longer among the account's recent ones (the journal)
     * @param journaled    whether the journal holds the entry with this key
     */
    public static Decision decide(Account account, TxRequest request, Function<JournalKey, JournalEntry> olderEntries,
                                  Predicate<JournalKey> journaled) {
        JournalEntry previous = account.recent(request.txId());
        if (previous == null) {
            previous = olderEntries.apply(new JournalKey(account.id(), request.txId()));
        }
        if (previous != null) {
            TxOutcome answer = previous.sameRequestAs(request) ? TxOutcome.replayed(previous) : TxOutcome.conflict(previous);
            return new Decision(answer, null, List.of());
        }
        long after = Math.addExact(account.balance(), request.type().delta(request.amount()));
        boolean withinLimits = after >= -account.overdraftLimit() && after <= MAX_BALANCE;
        boolean allowed = withinLimits || !request.type().refusable();
        JournalEntry entry = new JournalEntry(account.id(), request.txId(), request.type(), request.amount(),
                allowed ? TxStatus.APPLIED : TxStatus.REJECTED, allowed ? after : account.balance(), request.at(),
                account.version() + 1, request.ref());
        List<JournalEntry> recent = account.recent();
        List<JournalEntry> kept = new ArrayList<>(Math.min(recent.size(), RECENT) + 1);
        List<JournalEntry> toJournal = List.of();
        int older = recent.size() - (RECENT - 1);
        for (int i = 0; i < recent.size(); i++) {
            JournalEntry candidate = recent.get(i);
            if (i >= older || !journaled.test(candidate.key())) {
                kept.add(candidate);
                if (i < older && entry.seq() - candidate.seq() > RECENT + JOURNAL_SLACK) {
                    toJournal = toJournal.isEmpty() ? new ArrayList<>() : toJournal;
                    toJournal.add(candidate);
                }
            }
        }
        kept.add(entry);
        return new Decision(TxOutcome.recorded(entry), account.record(entry, kept), toJournal);
    }
}
