package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.LocalStores;
import io.partita.node.PartitionSentinels;
import io.partita.node.PerMember;

import java.util.List;
import java.util.Map;

/**
 * A member's side of the ledger, as its entry processors see it ({@link LedgerHost}): the same partition's journal and
 * sentinel read from the local stores, and the member's {@link JournalWriter}. One per member, in its user context,
 * started with the member ({@link #start}).
 * Its {@link LedgerHost} methods run on partition threads (see there), the writer on its own thread; the
 * merge counts from the merging partition threads into {@link MergeReport}; the views and meters read from any thread.
 * Its fields are final and each part it holds is safe for these threads.
 */
public final class MemberLedger implements LedgerHost {

    private static final String USER_CONTEXT_KEY = "partita.member-ledger";

    private final LocalStores stores;
    private final PartitionSentinels sentinels;
    private final JournalWriter writer;
    private final LedgerDisk disk;
    private final MergeReport merges = new MergeReport();

    private MemberLedger(HazelcastInstance hazelcast) {
        this.stores = LocalStores.of(hazelcast);
        this.sentinels = PartitionSentinels.of(hazelcast);
        this.disk = new LedgerDisk(hazelcast, JournalSettings.of(hazelcast));
        this.writer = new JournalWriter(hazelcast, JournalSettings.of(hazelcast),
                hazelcast.getPartitionService().getPartitions().size(), disk::tailsOnDisk);
    }

    public static MemberLedger of(HazelcastInstance hazelcast) {
        return PerMember.of(hazelcast, USER_CONTEXT_KEY, MemberLedger.class, MemberLedger::new);
    }

    /** Starts the member's journal writer; called once the member has started and created its maps. */
    public static void start(HazelcastInstance hazelcast) {
        MemberLedger ledger = of(hazelcast);
        ledger.writer.start();
        ledger.disk.start();
        hazelcast.getLifecycleService().addLifecycleListener(event -> {
            switch (event.getState()) {
                case SHUTTING_DOWN -> {
                    ledger.writer.stop();
                    ledger.disk.stop();
                }
                // This member's data is about to be merged into another cluster: what it queued was recorded on the
                // side that is merging, and joins the other side's accounts through their tails, with new seqs.
                // Written now, it would enter the journal with its old ones.
                // The tails get back what they let go of since the hold cutoff (TailRestore); the writer pauses until
                // the merge is over, so that nothing trims them again before Hazelcast reads them.
                case MERGING -> {
                    ledger.writer.pause(true);
                    ledger.writer.discardPending();
                    long holdCutoff = ledger.writer.holdCutoff();
                    TailRestore.beforeMerge(hazelcast, ledger, holdCutoff);
                    ledger.disk.merging(holdCutoff);
                }
                case MERGED, MERGE_FAILED -> {
                    ledger.writer.pause(false);
                    ledger.disk.merged();
                }
                default -> {
                }
            }
        });
    }

    @Override
    public int partitionOf(Map.Entry<String, Account> entry) {
        return stores.partitionOf(entry);
    }

    @Override
    public JournalEntry journaled(int partition, String accountId, String txId) {
        JournalKey key = new JournalKey(accountId, txId);
        Object record = stores.value(AccountFeature.JOURNAL, partition, key);
        return record == null ? null : ((JournalRecord) record).entry(key);
    }

    @Override
    public boolean kept(int partition, String accountId, String txId) {
        return disk.tailsOnDisk() || journaled(partition, accountId, txId) != null;
    }

    @Override
    public JournalEntry known(int partition, String accountId, String txId, long version) {
        JournalEntry journaled = journaled(partition, accountId, txId);
        return journaled != null ? journaled : disk.find(partition, accountId, txId, version);
    }

    @Override
    public boolean holdsSeq(int partition, String accountId, long seq) {
        return disk.holdsSeq(partition, accountId, seq);
    }

    @Override
    public boolean lost(int partition) {
        return sentinels.lost(partition);
    }

    @Override
    public void recorded(int partition, List<JournalEntry> entries) {
        writer.offer(partition, entries);
    }

    @Override
    public long holdCutoff() {
        return writer.holdCutoff();
    }

    @Override
    public void stored(int partition, String accountId, Account before, Account after) {
        disk.stored(partition, accountId, before, after);
    }

    /** The entry this member's own disk holds under {@code txId} for {@code accountId}, or null. */
    JournalEntry onOwnDisk(int partition, String accountId, String txId) {
        return disk.find(partition, accountId, txId, Long.MAX_VALUE);
    }

    /**
     * A split-brain merge put the other side's copy of an account into this member's store as it was (this side had
     * none). On the partition thread.
     */
    void takenInWhole() {
        disk.mergedIn();
    }

    /** Whether this member keeps the ledger on its disk (flush or fsync). */
    boolean onDisk() {
        return disk.onDisk();
    }

    /**
     * The entries of {@code accountId} this member's disk holds just below seq {@code beforeSeq}, as far as they run
     * without a gap and were recorded at or after {@code since}.
     */
    List<JournalEntry> onOwnDiskSince(int partition, String accountId, long beforeSeq, long since) {
        return disk.recordedSince(partition, accountId, beforeSeq, since);
    }

    /** Whether this member's disk holds exactly the partitions it holds a copy of now ({@link LedgerDisk#settled}). */
    public boolean diskSettled() {
        return disk.settled();
    }

    /** Accounts and journal entries this member put back from its disk at start. */
    public long recoveredAccounts() {
        return disk.recoveredAccounts();
    }

    public long recoveredEntries() {
        return disk.recoveredEntries();
    }

    /**
     * A split-brain merge joined the two sides of {@code accountId} on this member: the other side's transactions go
     * to the journal writer, and the merge is counted (and logged when it left a conflict). On the partition thread.
     */
    void merged(int partition, String accountId, AccountUnion.Result joined) {
        disk.mergedIn();
        if (!joined.appended().isEmpty()) {
            writer.offer(partition, joined.appended());
        }
        merges.record(accountId, joined);
    }

    @Override
    public void conflictAtRestart(String accountId, Account joined) {
        merges.conflict(accountId, joined, "a restart joined a disk's copy");
    }

    /** What split-brain merges did on this member since it started. */
    public MergeReport merges() {
        return merges;
    }

    /** Entries written to the journal by this member, and waiting to be. */
    public long journalWritten() {
        return writer.written();
    }

    public int journalPending() {
        return writer.pending();
    }

    /**
     * Entries this member did not copy to its journal map because the writer's queue was full: with the journal on
     * disk, what SQL's {@code journal} view skipped under a load the writer could not keep up with (the disks and the
     * history route have them); in memory mode, what the sweep writes later from the tails.
     */
    public long journalSkipped() {
        return writer.dropped();
    }

    /** Whether every entry of this member's tails is on its disk ({@link LedgerDisk#tailsOnDisk}). */
    boolean tailsOnDisk() {
        return disk.tailsOnDisk();
    }

    /**
     * Runs the sweep now, for tests and benchmarks: queues every tail entry recorded before {@code cutoffAt} that the
     * journal lacks, and trims those it holds, held or not (what a tail holds on purpose leaves it too).
     */
    public void sweep(long cutoffAt) {
        writer.sweep(cutoffAt, cutoffAt);
    }
}
