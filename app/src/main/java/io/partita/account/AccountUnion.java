package io.partita.account;

import java.util.ArrayList;
import java.util.List;

/**
 * One account's two sides after a network split, joined: what the side that is merged into holds ("existing"), plus
 * every transaction the other side ("merging") recorded that this side does not know. A transaction is known when
 * the existing tail or the partition's journal holds its txId; an unknown one is appended with the next seq, keeping
 * the answer its client got (status and balance after), and its amount moves the balance if it was applied. A txId
 * both sides recorded (a client that retried on the other side) counts once, as the existing side recorded it.
 *
 * <p>Why the other side's transactions are all in its tail: tails keep what was recorded within twice the heartbeat
 * timeout, and while the cluster runs below its expected size everything since that long before it last was whole
 * ({@link TrimTails}); what a busy account let go of past {@link JournalSettings#MAX_HELD} entries, the merging member
 * puts back from its journal just before the merge ({@link TailRestore}). So what a side recorded after the split,
 * even before it noticed, is in its accounts when they merge. (What it recorded before the split, both sides hold.)
 *
 * <p>A merge can leave an account below its overdraft limit when both sides debited it. The transactions stay, as
 * acknowledged; the account counts the conflict ({@link Account#conflicts()}), and the merge reports it.
 *
 * <p>A plain function of the two accounts and the journal's answers, like {@link Ledger}.
 */
final class AccountUnion {

    /**
     * @param account  the joined account
     * @param appended the other side's entries appended to it, with their new seqs (for the journal writer)
     * @param conflict whether this merge left the account below its overdraft limit
     */
    record Result(Account account, List<JournalEntry> appended, boolean conflict) {
    }

    private AccountUnion() {
    }

    static Result of(String accountId, Account existing, Account merging, LedgerHost host, int partition) {
        return of(accountId, existing, merging, host, partition, false);
    }

    /**
     * As {@link #of}, for a restart's join of a disk's copy into the account the cluster put back from another disk:
     * copies of one history, not two sides of a split. An entry at a seq the account counts, below its tail, of which
     * this member's disk holds no entry at all, is the account's own history that has not reached this disk yet (the
     * other disk offered it to the holders of its moment, and the partition moved since), not a transaction to add: a
     * transaction that differs from the cluster's at a seq the cluster counts was never acknowledged (flush writes
     * both copies before the answer), and its client retries it. Without this, such an entry was applied a second
     * time (found from outside: two credits of about 30 s before a stop of every node, again after the restart).
     */
    static Result restart(String accountId, Account existing, Account merging, LedgerHost host, int partition) {
        return of(accountId, existing, merging, host, partition, true);
    }

    private static Result of(String accountId, Account existing, Account merging, LedgerHost host, int partition,
                             boolean oneHistory) {
        Account joined = existing;
        List<JournalEntry> appended = new ArrayList<>();
        long tailFrom = existing.version() - Tail.size(existing.tail()) + 1;
        for (JournalEntry theirs : merging.tailEntries(accountId)) {
            if (joined.recorded(accountId, theirs.txId()) != null
                    || host.known(partition, accountId, theirs.txId(), joined.version()) != null) {
                continue;
            }
            if (oneHistory && theirs.seq() < tailFrom && !host.holdsSeq(partition, accountId, theirs.seq())) {
                continue;
            }
            long seq = joined.version() + 1;
            JournalEntry entry = new JournalEntry(accountId, theirs.txId(), theirs.type(), theirs.amount(),
                    theirs.status(), theirs.balanceAfter(), theirs.at(), seq, theirs.ref(), true);
            long delta = theirs.status() == TxStatus.APPLIED ? theirs.type().delta(theirs.amount()) : 0;
            joined = joined.merged(entry, joined.balance() + delta);
            appended.add(entry);
        }
        for (String runKey : merging.jobs()) {
            if (!joined.hasSeenJob(runKey)) {
                joined = joined.withJob(runKey);
            }
        }
        if (merging.fence() > joined.fence()) {
            joined = joined.withFence(merging.fence());
        }
        boolean conflict = !appended.isEmpty() && joined.balance() < -joined.overdraftLimit();
        if (conflict) {
            joined = joined.withConflict();
        }
        return new Result(joined, List.copyOf(appended), conflict);
    }
}
