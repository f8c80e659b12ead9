package io.partita.account;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The value of the {@code accounts} map, keyed by the account's id (which is therefore not repeated here).
 *
 * <p>Immutable: every change returns a new account, so the map can keep it as an object (OBJECT in-memory format) and
 * a transaction's entry processor never encodes or decodes it, while a query or a migration reading it on another
 * thread always sees a whole one.
 *
 * @param version        the seq of the newest entry: the number of transactions recorded (applied or rejected)
 * @param fence          the highest FencedLock fence that wrote the account; a write carrying a lower one is refused
 * @param openingBalance the balance the account was opened with, the base an audit adds the journal to
 * @param tail           the newest entries the journal may not hold yet, oldest first ({@link Tail}); an entry
 *                       leaves it only once the journal holds it, so every entry is in one place or the other
 * @param jobs           the run keys of the latest {@link #JOBS_KEPT} jobs that processed the account, oldest first,
 *                       whether or not they moved money: a job redone after a failover skips an account that holds it
 * @param conflicts      how many split-brain merges left this account below its overdraft limit (both sides debited
 *                       it); the acknowledged transactions are kept and the conflict reported, never corrected
 */
public record Account(long balance, long overdraftLimit, long version, long fence, long openingBalance,
                      byte[] tail, List<String> jobs, int conflicts) {

    /** How many job run keys an account remembers; a job's own journal entry still catches a repeat after that. */
    public static final int JOBS_KEPT = 8;

    public Account {
        Objects.requireNonNull(tail, "tail");
        jobs = jobs == null || jobs.isEmpty() ? List.of() : List.copyOf(jobs);
    }

    public static Account open(long balance, long overdraftLimit) {
        return new Account(balance, overdraftLimit, 0, 0, balance, Tail.EMPTY, List.of(), 0);
    }

    /** The entries of the tail, oldest first, with their seqs. */
    public List<JournalEntry> tailEntries(String accountId) {
        return Tail.entries(accountId, tail, version);
    }

    /** The entry the tail holds under {@code txId}, or null. */
    public JournalEntry recorded(String accountId, String txId) {
        return Tail.find(accountId, tail, version, txId);
    }

    public boolean hasSeenJob(String runKey) {
        return jobs.contains(runKey);
    }

    /** This account after {@code entry} (the next seq) was recorded: its balance is the entry's balance after. */
    public Account record(JournalEntry entry) {
        if (entry.seq() != version + 1) {
            throw new IllegalArgumentException("Entry " + entry.seq() + " does not follow version " + version);
        }
        return new Account(entry.balanceAfter(), overdraftLimit, entry.seq(), fence, openingBalance,
                Tail.append(tail, entry), jobs, conflicts);
    }

    /**
     * This account after a split-brain merge appended {@code entry} (the next seq), an entry the other side recorded:
     * the entry keeps the answer its client got, and the balance is recomputed by the merge.
     */
    Account merged(JournalEntry entry, long newBalance) {
        if (entry.seq() != version + 1) {
            throw new IllegalArgumentException("Entry " + entry.seq() + " does not follow version " + version);
        }
        return new Account(newBalance, overdraftLimit, entry.seq(), fence, openingBalance,
                Tail.append(tail, entry), jobs, conflicts);
    }

    /**
     * This account with {@code encoded} (entries in the tail's encoding, oldest first) put in front of its tail: the
     * entries just before its oldest one, back from the journal ({@link TailRestore}).
     */
    Account withEarlierEntries(byte[] encoded) {
        return new Account(balance, overdraftLimit, version, fence, openingBalance, Tail.append(encoded, tail), jobs,
                conflicts);
    }

    /** This account with {@code encoded} (entries in the tail's encoding, ending at its version) as its tail. */
    Account withTail(byte[] encoded) {
        return new Account(balance, overdraftLimit, version, fence, openingBalance, encoded, jobs, conflicts);
    }

    /** This account reported once more as left below its overdraft limit by a merge. */
    Account withConflict() {
        return new Account(balance, overdraftLimit, version, fence, openingBalance, tail, jobs, conflicts + 1);
    }

    /** This account with its tail entries up to seq {@code through} removed: the journal holds them. */
    public Account trimmedThrough(long through) {
        byte[] trimmed = Tail.trimThrough(tail, version, through);
        return trimmed == tail ? this
                : new Account(balance, overdraftLimit, version, fence, openingBalance, trimmed, jobs, conflicts);
    }

    /** This account remembering that the run {@code runKey} processed it, forgetting the oldest beyond the bound. */
    public Account withJob(String runKey) {
        List<String> next = new ArrayList<>(JOBS_KEPT);
        for (int i = Math.max(0, jobs.size() + 1 - JOBS_KEPT); i < jobs.size(); i++) {
            next.add(jobs.get(i));
        }
        next.add(runKey);
        return new Account(balance, overdraftLimit, version, fence, openingBalance, tail, next, conflicts);
    }

    /** This account as written by the holder of lock fence {@code newFence}. */
    public Account withFence(long newFence) {
        return new Account(balance, overdraftLimit, version, newFence, openingBalance, tail, jobs, conflicts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Account other && balance == other.balance && overdraftLimit == other.overdraftLimit
                && version == other.version && fence == other.fence && openingBalance == other.openingBalance
                && conflicts == other.conflicts && Arrays.equals(tail, other.tail) && jobs.equals(other.jobs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(balance, version, fence, Arrays.hashCode(tail));
    }

    @Override
    public String toString() {
        return "Account[balance=" + balance + ", overdraftLimit=" + overdraftLimit + ", version=" + version
                + ", fence=" + fence + ", openingBalance=" + openingBalance + ", tail=" + Tail.size(tail)
                + " entries, jobs=" + jobs + ", conflicts=" + conflicts + "]";
    }
}
