package io.partita.account;

import java.util.List;
import java.util.Map;

/**
 * What the ledger's entry processors need from the member they run on, beyond the entry itself: where the entry
 * lives, the same partition's journal and sentinel, and the journal writer. {@link MemberLedger} is the member's;
 * tests give a plain one, so a processor can be run as a function on a {@code SimpleEntry}.
 * Every method is called on the partition thread of the entry being processed.
 */
public interface LedgerHost {

    int partitionOf(Map.Entry<String, Account> entry);

    /** The entry the partition's journal map holds under ({@code accountId}, {@code txId}), or null. */
    JournalEntry journaled(int partition, String accountId, String txId);

    /**
     * Whether the entry recorded on {@code accountId} under {@code txId}, which its tail holds, is kept beyond the tail,
     * so that the tail may let go of it: the member's disk holds every entry of its tails ({@link
     * LedgerDisk#tailsOnDisk}), or else the journal map holds this one.
     */
    default boolean kept(int partition, String accountId, String txId) {
        return journaled(partition, accountId, txId) != null;
    }

    /**
     * The entry recorded on {@code accountId} under {@code txId} within the retention, or null: the exactly-once check
     * beyond the account's tail. The journal map's, or, for one older than the map keeps, the member's disk's (which
     * keeps the whole retention), if the account counts it: its seq is at most {@code version}, the account's. A disk
     * can hold an entry its account in the cluster does not count: after a stop of every node, a copy that went
     * further than the one the cluster put back first (the owner wrote it, its backup had not, so no client heard of
     * it); that entry is the copy's to add when it is joined, or a retry's to record.
     */
    default JournalEntry known(int partition, String accountId, String txId, long version) {
        return journaled(partition, accountId, txId);
    }

    /**
     * Whether this member's disk holds an entry of {@code accountId} at {@code seq}; true where it cannot tell (no disk),
     * which keeps a restart's join as a merge's ({@link AccountUnion#restart}).
     */
    default boolean holdsSeq(int partition, String accountId, long seq) {
        return true;
    }

    /** Whether the partition lost its data (owner and backups gone at once): an absent account may exist elsewhere. */
    boolean lost(int partition);

    /** Entries just recorded on an account, for the journal; the account's tail keeps them until it holds them. */
    void recorded(int partition, List<JournalEntry> entries);

    /**
     * A restart's join of a disk's copy left {@code accountId} below its overdraft limit (two histories of one id:
     * e.g. an account opened again after its partition's loss was accepted, and a disk that held the first came back):
     * logged and counted as a merge's conflict. On the partition thread.
     */
    default void conflictAtRestart(String accountId, Account joined) {
    }

    /**
     * Tail entries recorded at or after this instant (epoch milliseconds) stay in their tails even once journaled, up
     * to {@link JournalSettings#MAX_HELD} per tail (see {@link TrimTails}; {@link TailRestore} puts back the rest).
     */
    long holdCutoff();

    /**
     * {@code accountId} now holds {@code after} on this member (its owner's or a backup's copy), {@code before} what it
     * held (null for none): the member's disk takes it before the operation answers ({@link LedgerDisk}).
     */
    default void stored(int partition, String accountId, Account before, Account after) {
    }
}
