package io.partita.account;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What split-brain merges did on one member: accounts both sides held, the other side's transactions added to them,
 * and the accounts a merge left below their overdraft limit (both sides debited), the latest of which are kept by id.
 * <b>Threads:</b> recorded from the partition threads that run the merge, read from any thread (views, meters); the
 * counts are atomic and the latest conflicts are guarded by their own monitor.
 */
public final class MergeReport {

    private static final Logger LOG = LoggerFactory.getLogger(MergeReport.class);
    /** Conflicted account ids kept for the view. */
    static final int CONFLICTS_KEPT = 100;

    private final AtomicLong accountsJoined = new AtomicLong();
    private final AtomicLong transactionsAdded = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    @GuardedBy("latestConflicts")
    private final Deque<String> latestConflicts = new ArrayDeque<>();

    void record(String accountId, AccountUnion.Result joined) {
        accountsJoined.incrementAndGet();
        transactionsAdded.addAndGet(joined.appended().size());
        if (joined.conflict()) {
            conflict(accountId, joined.account(), "a merge joined both sides");
        }
    }

    /** {@code accountId}, as {@code how} left it, holds two histories' transactions and is below its overdraft limit. */
    void conflict(String accountId, Account account, String how) {
        conflicts.incrementAndGet();
        synchronized (latestConflicts) {
            latestConflicts.addLast(accountId);
            if (latestConflicts.size() > CONFLICTS_KEPT) {
                latestConflicts.removeFirst();
            }
        }
        LOG.warn("Merge conflict: {} of account {}, which holds both histories' acknowledged transactions and is now {} "
                + "below its overdraft limit; kept as is, and reported", how, accountId,
                -account.overdraftLimit() - account.balance());
    }

    /** Accounts both sides held when they merged. */
    public long accountsJoined() {
        return accountsJoined.get();
    }

    /** Transactions only the other side had recorded, added to the accounts. */
    public long transactionsAdded() {
        return transactionsAdded.get();
    }

    /** Merges that left an account below its overdraft limit. */
    public long conflicts() {
        return conflicts.get();
    }

    /** The latest accounts left below their overdraft limit by a merge, oldest first. */
    public List<String> latestConflicts() {
        synchronized (latestConflicts) {
            return List.copyOf(latestConflicts);
        }
    }
}
