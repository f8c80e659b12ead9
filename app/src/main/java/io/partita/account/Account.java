package io.partita.account;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The value of the {@code accounts} map.
 *
 * @param version        the number of transactions recorded on the account (applied or rejected)
 * @param fence          the highest FencedLock fence that wrote the account; a write carrying a lower one is refused
 * @param recent         the latest {@link Ledger#RECENT} journal entries, oldest first, and any older one the journal
 *                       does not hold yet: the answers to fast retries, held in the entry itself so that the duplicate
 *                       check needs no second lookup in the common case
 * @param openingBalance the balance the account was opened with, the base an audit adds the journal to;
 *                       {@link #UNKNOWN_OPENING} for an account stored before the field existed
 * @param jobs           the ids of the latest {@link #JOBS_KEPT} jobs that processed the account, oldest first, whether
 *                       or not they moved money: a job redone after a failover skips an account that holds its id
 */
public record Account(String id, long balance, long overdraftLimit, long version, long fence,
                      List<JournalEntry> recent, long openingBalance, List<String> jobs) {

    /** How many job ids an account remembers; a job's own journal entry still catches a repeat after that. */
    public static final int JOBS_KEPT = 8;
    public static final long UNKNOWN_OPENING = Long.MIN_VALUE;

    public Account {
        Objects.requireNonNull(id, "id");
        recent = List.copyOf(recent);
        jobs = jobs == null ? List.of() : List.copyOf(jobs);
    }

    /** An account as stored before jobs existed: its opening balance unknown, no job seen. */
    public Account(String id, long balance, long overdraftLimit, long version, long fence, List<JournalEntry> recent) {
        this(id, balance, overdraftLimit, version, fence, recent, UNKNOWN_OPENING, List.of());
    }

    public static Account open(String id, long balance, long overdraftLimit) {
        return new Account(id, balance, overdraftLimit, 0, 0, List.of(), balance, List.of());
    }

    public boolean hasSeenJob(String jobId) {
        return jobs.contains(jobId);
    }

    /** This account remembering that job {@code jobId} processed it, forgetting the oldest id beyond the bound. */
    public Account withJob(String jobId) {
        List<String> next = new ArrayList<>(JOBS_KEPT);
        for (int i = Math.max(0, jobs.size() + 1 - JOBS_KEPT); i < jobs.size(); i++) {
            next.add(jobs.get(i));
        }
        next.add(jobId);
        return new Account(id, balance, overdraftLimit, version, fence, recent, openingBalance, next);
    }

    JournalEntry recent(String txId) {
        for (int i = recent.size() - 1; i >= 0; i--) {
            JournalEntry entry = recent.get(i);
            if (entry.txId().equals(txId)) {
                return entry;
            }
        }
        return null;
    }

    /** This account after {@code entry} was recorded, holding {@code recent} (oldest first, ending with it). */
    Account record(JournalEntry entry, List<JournalEntry> recent) {
        return new Account(id, entry.balanceAfter(), overdraftLimit, entry.seq(), fence, recent, openingBalance, jobs);
    }

    /** This account as written by the holder of lock fence {@code newFence}. */
    public Account withFence(long newFence) {
        return new Account(id, balance, overdraftLimit, version, newFence, recent, openingBalance, jobs);
    }
}
