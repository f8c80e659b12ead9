package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.micronaut.core.annotation.Nullable;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.DiskAcks;
import io.partita.node.DiskRecords;
import io.partita.node.DiskShares;
import io.partita.node.HazelcastConfigs;
import io.partita.node.LocalStores;
import io.partita.node.MemberDisk;
import io.partita.node.Members;
import io.partita.node.PartitionSentinels;
import io.partita.store.HistoryPage;
import io.partita.store.StoredEntry;
import io.partita.store.StoredRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The ledger on a member's own disk ({@link MemberDisk}): every account this member holds a copy of, as owner or
 * backup, with its journal entries, so that a restart of the whole cluster finds every acknowledged transaction. A
 * change is written through before its operation answers; copies that arrive are written within a second; a partition
 * that no disk brings back stays lost until an operator accepts the loss.
 *
 * <b>Threads:</b> {@link #stored} runs on partition threads; copying, dropping, retention, the push after a merge and
 * recovery run on this member's disk thread ("partita-disk-&lt;member&gt;"), which reaches a partition's stores through
 * tasks on that partition's thread. The merge hooks run on Hazelcast's lifecycle thread and hand their state to the
 * disk thread through volatile fields.
 */
final class LedgerDisk {

    /*
     * Write-through
     *
     * Every change of an account on this member, by its owner's entry processor or by the backup of it (AccountBackup),
     * queues the account and the entries it recorded for the disk on the same partition thread, and the operation
     * answers (the backup acknowledges) only once they are written: one atomic write of the store's log, handed to the
     * operating system (flush) or synced (fsync), shared by every write queued at that moment (DiskAcks; the
     * partition thread does not wait for it in the ledger's own operations). A client hears 200 only after the owner's
     * and the backup's operations have both answered, so an acknowledged transaction is on both their disks.
     *
     * Copies that arrive
     *
     * A member that a migration makes owner or backup of a partition writes the partition's accounts and journal to
     * its disk on the partition's thread as the migration completes, and records that it holds the partition (the
     * history older than the journal map arrived with the migration, DiskShares); a copy that comes otherwise (a
     * backup made anew after a crash) is written within a second. One that no longer holds a copy drops the
     * partition from its disk, unless it is stopping: a stop of every node at once leaves every copy it had. Once
     * the member has started (after its recovery, which brings other disks' entries into the partitions it holds), and
     * on every member after a split-brain merge, every copy is written again, and every partition the disk holds that
     * the member does not is dropped. (Until a copy is written, the previous holders' disks keep the partition as it
     * was.)
     *
     * Merges
     *
     * A member that merges into another cluster keeps its disk as it is while the merge runs, then sends the history
     * its disk holds from before the split to the merged cluster's disks, which add what they lack (the other side may
     * have lost the partition).
     *
     * Retention
     *
     * Once a minute, entries older than the journal's retention leave the disk.
     *
     * Recovery
     *
     * A member that finds data on its disk puts it back once the cluster lets it serve, partition by partition: each
     * account with its journal entries in its tail, joined with what the cluster holds by transaction id
     * (RecoverAccounts, the split-brain merge's union). Until its own copy of a partition is joined, a write there
     * reaches its disk without the account's record, which may be newer than the cluster's (another disk's copy that
     * is behind came first). Once every member present that found data has joined its copies, the partitions'
     * sentinels come back, so that their accounts are served again. A partition that no disk brings back stays lost
     * (503 partition-lost) until an operator accepts the loss.
     * Several copies of one partition (owner's and backup's disks) are each joined in the same way; a copy that is
     * behind adds nothing.
     */

    private static final Logger LOG = LoggerFactory.getLogger(LedgerDisk.class);
    private static final byte ACCOUNT = 'a';
    private static final long RETENTION_EVERY_MILLIS = 60_000;
    private static final long COPY_EVERY_MILLIS = 1_000;
    private static final Duration PARTITION_TASKS = Duration.ofMinutes(2);
    /** Entries one message of a {@link DiskShares#push} carries. */
    private static final int PUSH_CHUNK = 4_096;
    /**
     * Rounds a partition whose share a migration from here went without waits for its holders to change before its
     * history is offered anyway (a migration that was rolled back changes none).
     */
    private static final int WITHHELD_ROUNDS = 10;

    private final HazelcastInstance hazelcast;
    private final MemberDisk disk;
    private final JournalSettings settings;
    private final int backups;
    /** What the features keep on disk beside the ledger. */
    private final List<DiskRecords<?, ?>> kinds;
    /** The partitions this member's disk holds a whole copy of; only the disk thread reads and changes it. */
    private final BitSet held = new BitSet();
    /** Per partition, the rounds {@link #offerWithheld} has waited for its holders to change; the disk thread's. */
    private final int[] withheldRounds = new int[HazelcastConfigs.PARTITION_COUNT];
    /** Partitions whose copy was written as a migration brought it ({@link #copyArrived}), for the disk thread. */
    private final Set<Integer> writtenOnArrival = ConcurrentHashMap.newKeySet();
    /** Whether this member has recorded on its disk that it holds this cluster's data ({@link #markHoldsData}). */
    private volatile boolean marked;
    private final AtomicLong recoveredAccounts = new AtomicLong();
    private final AtomicLong recoveredEntries = new AtomicLong();
    /** Where a recovery's time went, for its log line; only the disk thread touches them. */
    private long readingNanos;
    private long sendingNanos;
    private long joiningNanos;
    /** Entries of the older history another holder's disk lacked, sent to it during a recovery. */
    private long sentEntries;
    /** Set from the start of a split-brain merge of this member until its end: nothing is dropped meanwhile. */
    private volatile boolean merging;
    /** The hold cutoff when this member's merge began. */
    private volatile long mergeCutoff;
    /**
     * After a split-brain merge of this member: entries recorded before this instant (the hold cutoff when the merge
     * began, so before the split) go to the partitions' holders in the merged cluster; -1 when none is due.
     */
    private final AtomicLong pushBefore = new AtomicLong(-1);
    /** When retention runs next, by cluster time; only the disk thread touches it. */
    private long nextRetention;
    private volatile boolean running = true;
    /**
     * The latest {@link MemberDisk#rewriteAll} request a round has served by writing every copy again: until it
     * catches up with the requests, the tails may hold entries this member's disk lacks ({@link #tailsOnDisk}).
     */
    private volatile long rewritten;

    LedgerDisk(HazelcastInstance hazelcast, JournalSettings settings) {
        this.hazelcast = hazelcast;
        this.disk = MemberDisk.of(hazelcast);
        this.settings = settings;
        this.backups = hazelcast.getConfig().getMapConfig(AccountFeature.ACCOUNTS).getBackupCount();
        this.kinds = DiskRecords.of(hazelcast);
    }

    boolean onDisk() {
        return disk.onDisk();
    }

    /** Starts the disk thread: recovery first if the member found data, then the copying and the retention. */
    void start() {
        if (!disk.onDisk()) {
            return;
        }
        disk.onCopyArrived(this::copyArrived);
        Thread thread = new Thread(this::run, "partita-disk-" + hazelcast.getName());
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
    }

    /**
     * This member is about to merge into another cluster, which resets its partitions: until {@link #merged}, its disk
     * keeps every partition it holds, so that the history its side recorded before {@code holdCutoff} can reach the
     * merged cluster's disks.
     */
    void merging(long holdCutoff) {
        disk.rewriteAll();
        mergeCutoff = holdCutoff;
        merging = true;
    }

    /**
     * Whether every entry in the tails this member holds is on its disk, so that a tail may let go of an entry without
     * the journal map holding it. True, in flush and fsync mode, from the first round that wrote every copy after
     * start (and recovery) until anything puts entries into tails other than through {@link #stored}: a split-brain
     * merge, on either side ({@link #merging}, {@link #mergedIn}), which then asks every member to write every copy
     * again ({@link DiskShares#rewriteEverywhere}). A copy that arrives brings its partition's share of the disk with
     * it ({@link DiskShares}). Until a round has served the latest request, tails keep what the journal map does not
     * hold. Any thread.
     */
    boolean tailsOnDisk() {
        return disk.onDisk() && !merging && rewritten >= disk.rewritesAsked();
    }

    /**
     * A split-brain merge just put an account into this member's store outside the ledger's own operations (the side
     * that takes a merge knows of it only here): its entries may not be on this member's disk, or its backups', until
     * every copy is written again, which this asks for. On the partition thread.
     */
    void mergedIn() {
        if (!disk.onDisk()) {
            return;
        }
        disk.rewriteAll();
    }

    /**
     * The entries this member's disk holds for {@code accountId} just below seq {@code beforeSeq}, newest first, as
     * far as they run without a gap and were recorded at or after {@code since}; empty in memory mode.
     */
    List<JournalEntry> recordedSince(int partition, String accountId, long beforeSeq, long since) {
        List<JournalEntry> found = new ArrayList<>();
        if (!disk.onDisk()) {
            return found;
        }
        long next = beforeSeq;
        while (next > 1) {
            long before = next;
            HistoryPage page = disk.read(store -> store.history(partition, accountId, before, PUSH_CHUNK), null);
            if (page == null) {
                return found;
            }
            for (StoredEntry entry : page.entries()) {
                if (entry.seq() != next - 1 || entry.at() < since) {
                    return found;
                }
                found.add(JournalEntry.of(entry));
                next = entry.seq();
            }
            if (page.last()) {
                return found;
            }
        }
        return found;
    }

    /**
     * The merge is over: the history this member's disk holds from before the split goes to the disks of the
     * partitions' holders in the merged cluster (the merge itself carried only accounts and their recent entries, and
     * where the other side had lost a partition no disk there has its history), then every member writes every copy
     * it holds again, since the merge changed their maps without the ledger's entry processors.
     */
    void merged() {
        pushBefore.set(mergeCutoff);
        merging = false;
        if (!disk.onDisk()) {
            return;
        }
        DiskShares.rewriteEverywhere(hazelcast);
    }

    /**
     * Whether the partitions this member's disk says it holds are exactly those it holds a copy of now: no copy that
     * arrived is still to be written, and none that left is still marked as held. Until then a stop of every node may
     * leave a partition on no disk that holds it whole (see the README's "Known limits"). Any thread.
     */
    boolean settled() {
        if (!disk.onDisk() || disk.recovering()) {
            return !disk.onDisk();
        }
        BitSet onDisk = new BitSet();
        disk.use(store -> onDisk.or(store.heldPartitions()));
        return onDisk.equals(replicas());
    }

    /** The partitions this member holds a copy of now: as owner or one of the ledger's backups. */
    private BitSet replicas() {
        BitSet replicas = new BitSet();
        for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
            if (disk.holdsReplica(partition, backups)) {
                replicas.set(partition);
            }
        }
        return replicas;
    }

    long recoveredAccounts() {
        return recoveredAccounts.get();
    }

    long recoveredEntries() {
        return recoveredEntries.get();
    }

    /**
     * Writes {@code after}, the new value of {@code accountId}, and the entries it recorded since {@code before}, to
     * this member's disk, before the call that changed it answers ({@link DiskAcks}: the ledger's operations answer
     * once it is durable, others wait for it here); on the partition thread that changed it. The account goes without
     * its tail: each of the tail's entries reached the disk as an entry when it was recorded (or with the partition's
     * copy), so a write costs the account's fields and its new entries, never the whole tail again (on a hot account
     * that tail holds every entry of the last seconds), and recovery rebuilds the tail from the entries
     * ({@link #withHistory}).
     */
    void stored(int partition, String accountId, @Nullable Account before, Account after) {
        if (!disk.onDisk()) {
            return;
        }
        long since = before == null ? 0 : before.version();
        List<StoredEntry> entries = new ArrayList<>();
        if (after.version() > since) {
            long added = Math.min(Integer.MAX_VALUE, after.version() - since);
            for (JournalEntry entry : Tail.newest(accountId, after.tail(), after.version(), (int) added)) {
                entries.add(stored(entry));
            }
        }
        // Until this disk's own copy of the partition is joined, the cluster's account may be an older copy's (another
        // disk's, read first): its record would replace this disk's newer one, whose transactions would then be lost
        // to the join. The entries go all the same; the join writes the record. (This member may not have started its
        // ledger yet: it holds replicas, and takes their writes, from the moment it joins the cluster.)
        List<StoredRecord> record = disk.unjoined(partition) ? List.of()
                : List.of(new StoredRecord(accountKey(accountId), encode(after.withTail(Tail.EMPTY))));
        disk.use(store -> DiskAcks.write(store, store.prepare(partition, entries, record, false)));
    }

    /** Whether this member's disk holds an entry of {@code accountId} at {@code seq}; true in memory mode. */
    boolean holdsSeq(int partition, String accountId, long seq) {
        if (!disk.onDisk()) {
            return true;
        }
        return disk.read(store -> store.history(partition, accountId, seq + 1, 1).entries().stream()
                .anyMatch(entry -> entry.seq() == seq), true);
    }

    /**
     * The entry this member's disk holds under {@code txId} for {@code accountId} with a seq at most {@code
     * throughSeq}, or null (none in memory mode).
     */
    @Nullable
    JournalEntry find(int partition, String accountId, String txId, long throughSeq) {
        if (!disk.onDisk()) {
            return null;
        }
        return disk.read(store -> store.find(partition, accountId, txId, throughSeq).map(JournalEntry::of)
                .orElse(null), null);
    }

    /**
     * Recovery, then a round of copies, pushes and retention every second, until the member stops. A step that fails
     * (a call the grid could not answer in time, on a busy machine or while members come and go) is logged and run
     * again a second later: every step is safe to repeat (recovery joins by txId and adds only what is missing), and a
     * disk thread that stopped would leave the member not ready for good, or its new copies off its disk.
     */
    private void run() {
        try {
            while (disk.recovering()) {
                if (!active() || !attempt("recovery", this::recover, () -> { })) {
                    return;
                }
            }
            // What a failed round was to write may be half-written: the next one writes every copy.
            while (active() && attempt("round", this::round, disk::rewriteAll)) {
                TimeUnit.MILLISECONDS.sleep(COPY_EVERY_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean active() {
        return running && hazelcast.getLifecycleService().isRunning();
    }

    /** A step of the disk thread, which may wait. */
    private interface Step {
        void run() throws InterruptedException;
    }

    /**
     * Runs {@code step} once. If it fails, runs {@code onFailure}, logs it and pauses before answering; answers false
     * only when the ledger or its member is stopping (which is why it failed), true when the thread goes on.
     */
    private boolean attempt(String name, Step step, Runnable onFailure) throws InterruptedException {
        try {
            step.run();
            return true;
        } catch (HazelcastInstanceNotActiveException e) {
            return false;
        } catch (RuntimeException e) {
            if (!active()) {
                return false;
            }
            onFailure.run();
            LOG.warn("The ledger's disk {} failed; it runs again in {} ms", name, COPY_EVERY_MILLIS, e);
            TimeUnit.MILLISECONDS.sleep(COPY_EVERY_MILLIS);
            return true;
        }
    }

    /** One round of the disk thread: a push due after a merge, the copies, and the retention when it is due. */
    private void round() throws InterruptedException {
        if (merging) {
            return;
        }
        long before = pushBefore.getAndSet(-1);
        if (before >= 0) {
            try {
                pushHistory(before);
            } catch (RuntimeException e) {
                // Kept for the next round, unless a newer merge has asked for its own push meanwhile.
                pushBefore.compareAndSet(-1, before);
                throw e;
            }
        }
        offerWithheld();
        copyCopies();
        long now = ClusterClock.now(hazelcast);
        if (now < nextRetention) {
            return;
        }
        long cutoff = now - settings.retention().toMillis();
        disk.use(store -> store.expireBefore(Math.max(0, cutoff)));
        nextRetention = now + RETENTION_EVERY_MILLIS;
    }

    /**
     * Offers again the history of each partition that a migration from here took without its disk share while the
     * recovery held it back ({@link MemberDisk#shareWithheld}), once that migration is over: the recovery offered its
     * older history to the holders it found, and the member the migration made a holder may have come after. The whole
     * of it, the recent entries too: the recovery joined those into the tails, which carried only what they still held
     * when the migration came (a busy account's tail keeps its last few dozen), so the new holder may lack the rest (found
     * from outside: after a node's restart under load, entries of the last seconds before it missing from their new
     * owner's disk, which a later restart then joined as new, applying them twice). The holders add what they lack and
     * never replace an entry they hold. Until then this disk keeps the partition ({@link #copyCopies}).
     */
    private void offerWithheld() {
        long cutoff = ClusterClock.now(hazelcast) - settings.retention().toMillis();
        for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
            int at = disk.withheldAt(partition);
            if (at < 0 || disk.shareHeldBack(partition) || DiskShares.migrating(hazelcast, partition)) {
                continue;
            }
            if (DiskShares.holdersVersion(hazelcast, partition) == at && ++withheldRounds[partition] < WITHHELD_ROUNDS) {
                continue;
            }
            withheldRounds[partition] = 0;
            if (disk.clearWithheld(partition, at)) {
                try {
                    offer(partition, readCopy(partition, cutoff).whole());
                } catch (RuntimeException e) {
                    // Offered again by the next round, and kept on this disk until then.
                    disk.shareWithheld(partition, at);
                    throw e;
                }
            }
        }
    }

    /**
     * Writes every partition this member newly holds a copy of, and drops those it no longer does. A partition's
     * copy is read and written on its partition thread, so no write of it comes in between.
     */
    private void copyCopies() throws InterruptedException {
        long serving = disk.takeRewrite();
        boolean all = serving >= 0;
        if (all) {
            // Everything again: what the disk says it holds is what may need dropping.
            held.clear();
            disk.use(store -> held.or(store.heldPartitions()));
        }
        for (Iterator<Integer> written = writtenOnArrival.iterator(); written.hasNext(); ) {
            held.set(written.next());
            written.remove();
        }
        BitSet replicas = replicas();
        BitSet copy = (BitSet) replicas.clone();
        if (!all) {
            copy.andNot(held);
        }
        BitSet drop = (BitSet) held.clone();
        drop.andNot(replicas);
        for (int partition = drop.nextSetBit(0); partition >= 0; partition = drop.nextSetBit(partition + 1)) {
            if (disk.withheldAt(partition) >= 0) {
                drop.clear(partition);
            }
        }
        if (copy.isEmpty() && drop.isEmpty()) {
            if (all) {
                rewritten = serving;
            }
            return;
        }
        LocalStores stores = LocalStores.of(hazelcast);
        stores.onPartitions(copy, partition -> writeCopy(stores, partition), PARTITION_TASKS);
        if (all) {
            rewritten = serving;
        }
        // Decided a moment ago: on the partition's thread, a partition that is coming back (a migration brings it, or
        // brought it since) keeps what the disk has, so that a share just written is not deleted. It is no longer held
        // whole all the same: once it is back, the next round writes its copy.
        stores.onPartitions(drop, partition -> {
            if (!merging && !DiskShares.arriving(hazelcast, partition) && !disk.holdsReplica(partition, backups)) {
                disk.use(store -> store.dropPartitionNow(partition));
            }
        }, PARTITION_TASKS);
        held.or(copy);
        held.andNot(drop);
        if (!copy.isEmpty()) {
            markHoldsData();
        }
    }

    /** Records on the disk that it holds this cluster's data: synced the first time, then nothing (not even a read). */
    private void markHoldsData() {
        if (!marked) {
            marked = disk.use(store -> store.markHoldsData(hazelcast.getConfig().getClusterName(),
                    ClusterClock.now(hazelcast)));
        }
    }

    /**
     * Sends the entries this member's disk holds from before {@code before} (and within the retention) to the disks of
     * each partition's holders, which add those they lack: after a merge, so that the history of a partition the other
     * side had lost is not dropped with this member's copy of it. What was recorded since is not sent: a merge joins
     * it into the accounts under new seqs.
     */
    private void pushHistory(long before) {
        BitSet onDisk = new BitSet();
        disk.use(store -> onDisk.or(store.heldPartitions()));
        long oldest = ClusterClock.now(hazelcast) - settings.retention().toMillis();
        long offered = 0;
        long sent = 0;
        for (int partition = onDisk.nextSetBit(0); partition >= 0; partition = onDisk.nextSetBit(partition + 1)) {
            List<StoredEntry> older = new ArrayList<>();
            int p = partition;
            disk.use(store -> store.export(p, PUSH_CHUNK, chunk -> chunk.stream()
                    .filter(entry -> entry.at() < before && entry.at() >= oldest).forEach(older::add)));
            sent += push(partition, older).sent();
            offered += older.size();
        }
        LOG.info("Sent {} of the {} journal entries recorded before the split in {} partitions on this member's disk to "
                + "the merged cluster's disks that lacked them", sent, offered, onDisk.cardinality());
    }

    /**
     * {@code entries} of {@code partition} to the disks of its owner and backups that lack them, a chunk at a time.
     * Repeated whole after a failure: what arrived is not sent again.
     */
    private DiskShares.Pushed push(int partition, List<StoredEntry> entries) {
        return Members.repeatUntilDone(() -> DiskShares.push(hazelcast, partition, entries, PUSH_CHUNK));
    }

    /**
     * A recovery's offer of {@code partition}'s older history to its holders ({@link #push}), timed and counted for the
     * recovery's log line: the partition table's version of the partition the holders had.
     */
    private int offer(int partition, List<StoredEntry> older) {
        long started = System.nanoTime();
        DiskShares.Pushed pushed = push(partition, older);
        sentEntries += pushed.sent();
        sendingNanos += System.nanoTime() - started;
        return pushed.holdersVersion();
    }

    /**
     * A migration brought a copy of {@code partition} to this member ({@link MemberDisk#copyArrived}): written now, on
     * its partition thread, so that it is on this disk, held whole, before the migration completes, whether or not this
     * member's disk thread still runs (it stops as the member starts to shut down, and a stop of every node at once
     * moves partitions between stopping members). During a recovery or a merge, after which every copy is written
     * again, only its entries ({@link #entriesArrived}); a copy that fails here is written by the disk thread's next
     * round.
     */
    private void copyArrived(int partition) {
        if (merging || disk.recovering()) {
            entriesArrived(partition);
            return;
        }
        try {
            // The disk says whose data it holds before it holds any, or a member stopped a moment later would start
            // again as empty.
            markHoldsData();
            writeCopy(LocalStores.of(hazelcast), partition);
            writtenOnArrival.add(partition);
        } catch (RuntimeException e) {
            LOG.warn("Partition {}'s copy was not written as it arrived; the disk thread writes it: {}", partition,
                    e.toString());
        }
    }

    /**
     * A copy that arrived during a recovery or a merge: its records wait for the round that writes every copy after it
     * (until this disk's own copy is joined, a record written now could replace a newer one it holds), but its entries
     * go to this disk now, those it lacks, never replacing one it holds. They cannot wait: an owner whose own disk
     * holds them lets them go from the tails (past the hold, or past a tail's bound), and the round would then write
     * the accounts without them, leaving this disk's copy of their history with a gap that a retry of such a txId, or
     * a later join, would not see (found from outside: after a restart of every node, accounts whose journal on their
     * new owner's disk was empty, and acknowledged txIds applied again). On the partition thread, before the migration
     * completes; one that fails here is left to the round, as before.
     */
    private void entriesArrived(int partition) {
        try {
            List<StoredEntry> entries = copyEntries(LocalStores.of(hazelcast), partition, null);
            if (!entries.isEmpty()) {
                disk.use(store -> store.writeAbsent(partition, entries));
            }
        } catch (RuntimeException e) {
            LOG.warn("Partition {}'s entries were not written as its copy arrived; the disk thread writes them: {}",
                    partition, e.toString());
        }
    }

    /**
     * The journal entries of {@code partition}'s copy in this member's maps: its accounts' tails and its journal map;
     * with {@code records} not null, the accounts' records go there too.
     */
    private static List<StoredEntry> copyEntries(LocalStores stores, int partition,
                                                 @Nullable List<StoredRecord> records) {
        List<StoredEntry> entries = new ArrayList<>();
        stores.forEach(AccountFeature.ACCOUNTS, partition, (key, value) -> {
            String accountId = (String) key;
            Account account = (Account) value;
            if (records != null) {
                records.add(new StoredRecord(accountKey(accountId), encode(account)));
            }
            account.tailEntries(accountId).forEach(entry -> entries.add(stored(entry)));
        });
        stores.forEach(AccountFeature.JOURNAL, partition, (key, value) ->
                entries.add(stored(((JournalRecord) value).entry((JournalKey) key))));
        return entries;
    }

    private void writeCopy(LocalStores stores, int partition) {
        List<StoredRecord> records = new ArrayList<>();
        List<StoredEntry> entries = copyEntries(stores, partition, records);
        for (DiskRecords<?, ?> kind : kinds) {
            stores.forEach(kind.mapName(), partition, (key, value) -> {
                StoredRecord record = kind.record(key, value);
                if (record.value() != null) {
                    records.add(record);
                }
            });
        }
        disk.use(store -> store.writeNow(partition, entries, records, true));
    }

    /**
     * Puts back every partition this member's disk held, once the cluster lets it write: journal entries within the
     * retention first, then the accounts joined with what the cluster holds, then the partition's sentinel. Until its
     * history has been offered to the holders that stay, a partition's migrations from here carry no disk share
     * ({@link MemberDisk#shareHeldBack}): once they do again, a partition whose holders changed since its offer is
     * offered again.
     */
    private void recover() throws InterruptedException {
        awaitWhile(() -> !HazelcastConfigs.majorityPresent(hazelcast));
        if (!disk.lastMembersPresent()) {
            LOG.info("Waiting for a majority of the members this disk last saw ({}) before putting its data back: "
                    + "a member that stopped before the others holds copies that are behind theirs, and only they can "
                    + "tell", String.join(", ", disk.lastMembers()));
            awaitWhile(() -> !disk.lastMembersPresent());
        }
        BitSet onDisk = new BitSet();
        disk.use(store -> onDisk.or(store.heldPartitions()));
        LOG.info("Recovering {} partitions from this member's disk", onDisk.cardinality());
        long started = System.nanoTime();
        long cutoff = ClusterClock.now(hazelcast) - settings.retention().toMillis();
        PartitionSentinels sentinels = PartitionSentinels.of(hazelcast);
        Map<Integer, Integer> offeredAt = new HashMap<>();
        for (int partition = onDisk.nextSetBit(0); partition >= 0; partition = onDisk.nextSetBit(partition + 1)) {
            int p = partition;
            Members.repeatUntilDone(() -> offerOlder(p, cutoff, offeredAt));
        }
        // The accounts are joined once every member present that found data has offered its older history: a join
        // checks a txId against the owner's disk, which must hold by then what another disk has as older history and
        // this one as recent (MemberDisk#othersOffering).
        disk.offered();
        awaitWhile(disk::othersOffering);
        for (int partition = onDisk.nextSetBit(0); partition >= 0; partition = onDisk.nextSetBit(partition + 1)) {
            int p = partition;
            Members.repeatUntilDone(() -> joinPartition(p, cutoff));
            disk.partitionJoined(p);
        }
        int offeredAgain = 0;
        for (int partition = onDisk.nextSetBit(0); partition >= 0; partition = onDisk.nextSetBit(partition + 1)) {
            disk.releaseShare(partition);
            Integer offered = offeredAt.get(partition);
            if (offered != null && offered != DiskShares.holdersVersion(hazelcast, partition)) {
                offer(partition, readCopy(partition, cutoff).whole());
                offeredAgain++;
            }
        }
        // The partitions serve once every member present that found data has joined its copies: a copy that is behind
        // may have come first, and a write on it would take a seq a newer copy still to come holds for another txId.
        disk.joined();
        awaitWhile(disk::othersJoining);
        for (int partition = onDisk.nextSetBit(0); partition >= 0; partition = onDisk.nextSetBit(partition + 1)) {
            int p = partition;
            Members.repeatUntilDone(() -> sentinels.restore(p));
        }
        disk.recovered();
        LOG.info("Recovered {} accounts with {} journal entries from {} partitions in {} ms (reading the disk {} ms, "
                + "sending older history {} ms, {} entries other disks lacked, {} partitions offered again after "
                + "their holders changed, joining accounts {} ms)", recoveredAccounts.get(), recoveredEntries.get(),
                onDisk.cardinality(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                TimeUnit.NANOSECONDS.toMillis(readingNanos), TimeUnit.NANOSECONDS.toMillis(sendingNanos), sentEntries,
                offeredAgain, TimeUnit.NANOSECONDS.toMillis(joiningNanos));
    }

    /** Waits while {@code condition} holds and the member runs, looking again every 100 ms. */
    private void awaitWhile(BooleanSupplier condition) throws InterruptedException {
        Members.awaitWhile(hazelcast, condition, 100);
    }

    /**
     * A partition's copy on this disk: its accounts and other records, and its entries within the retention, split into
     * the recent ones of each account it has a record of (within the hold or the journal map's window, whichever is
     * longer, of its newest entry: the last moments in which copies can differ, and what the tails hold on purpose) and
     * the older history, with every entry of an account it has no record of; and all of them together ({@code whole}),
     * what is offered where no join of the accounts follows.
     */
    private record DiskCopy(Map<String, Account> accounts, Map<DiskRecords<?, ?>, List<StoredRecord>> others,
                            Map<String, Map<Long, JournalEntry>> recent, List<StoredEntry> older,
                            List<StoredEntry> whole) {
    }

    /** {@code partition}'s copy on this disk, timed for the recovery's log line. */
    private DiskCopy readCopy(int partition, long cutoff) {
        long started = System.nanoTime();
        // The records before the entries: a member that rejoined a running cluster takes writes while it recovers, and
        // an account's record is written with its newest entry in one batch, so every entry a record read here counts
        // is in the entries read after it (newer ones are left out by seq).
        Map<String, Account> accounts = new LinkedHashMap<>();
        Map<DiskRecords<?, ?>, List<StoredRecord>> others = new LinkedHashMap<>();
        disk.use(store -> store.records(partition, record -> {
            if (record.key().length > 1 && record.key()[0] == ACCOUNT) {
                String accountId = new String(record.key(), 1, record.key().length - 1, StandardCharsets.UTF_8);
                accounts.put(accountId, decode(record.value()));
            } else {
                kinds.stream().filter(kind -> kind.owns(record.key())).findFirst()
                        .ifPresent(kind -> others.computeIfAbsent(kind, k -> new ArrayList<>()).add(record));
            }
        }));
        Map<String, List<StoredEntry>> stored = new HashMap<>();
        disk.use(store -> store.export(partition, 1_000, chunk -> {
            for (StoredEntry entry : chunk) {
                if (entry.at() >= cutoff) {
                    stored.computeIfAbsent(entry.accountId(), id -> new ArrayList<>()).add(entry);
                }
            }
        }));
        Map<String, Map<Long, JournalEntry>> recent = new HashMap<>();
        List<StoredEntry> older = new ArrayList<>();
        List<StoredEntry> whole = new ArrayList<>();
        stored.values().forEach(whole::addAll);
        long window = Math.max(settings.inMemory().toMillis(), settings.hold().toMillis());
        stored.forEach((accountId, entries) -> {
            long newest = entries.stream().mapToLong(StoredEntry::at).max().orElse(0);
            // An account without a record here (entries another disk sent, or written before its copy was joined):
            // its history is offered all the same; only an account with a record is joined.
            boolean joined = accounts.containsKey(accountId);
            for (StoredEntry entry : entries) {
                if (joined && entry.at() >= newest - window) {
                    recent.computeIfAbsent(accountId, id -> new HashMap<>()).put(entry.seq(), JournalEntry.of(entry));
                } else {
                    older.add(entry);
                }
            }
        });
        readingNanos += System.nanoTime() - started;
        return new DiskCopy(accounts, others, recent, older, whole);
    }

    /**
     * The first step of putting back one partition of this disk ({@link #readCopy}): its older history, straight to the
     * disks of the partition's owner and backups ({@link DiskShares#push}, which sends only what they lack), before
     * any member joins its accounts; {@code offeredAt} takes the partition table's version of the partition its
     * holders had.
     */
    private void offerOlder(int partition, long cutoff, Map<Integer, Integer> offeredAt) {
        DiskCopy copy = readCopy(partition, cutoff);
        if (!copy.older().isEmpty()) {
            offeredAt.put(partition, offer(partition, copy.older()));
        } else if (!copy.whole().isEmpty()) {
            // Nothing older to offer: the entries are joined later, through the holders of then; should those change
            // before the partitions serve, the whole copy is offered to the new ones.
            offeredAt.put(partition, DiskShares.holdersVersion(hazelcast, partition));
        }
        recoveredEntries.addAndGet(copy.older().size());
    }

    /**
     * The second step, once every member present has offered its older history ({@link #offerOlder}): each account
     * comes back with its recent entries in its tail (the journal writer moves them to the journal, as it does new
     * ones), so a txId the disk knows is known the moment the account is back. An account the cluster holds already is
     * joined with the disk's copy by txId ({@link RecoverAccounts}), never overwritten, and the recent entries go
     * through that join rather than straight into the journal, where one the cluster's account does not count would
     * make its journal disagree with its balance: copies of a partition on several disks differ only in their last
     * moments (a write the owner made and its backup did not), which the recent window covers.
     */
    private void joinPartition(int partition, long cutoff) {
        DiskCopy copy = readCopy(partition, cutoff);
        long joining = System.nanoTime();
        Map<String, Account> accounts = copy.accounts();
        accounts.replaceAll((accountId, account) -> withHistory(accountId, account,
                copy.recent().getOrDefault(accountId, Map.of())));
        if (!accounts.isEmpty()) {
            BackedUpCalls.executeOnKeys(hazelcast, AccountFeature.ACCOUNTS, accounts.keySet(),
                    new RecoverAccounts(accounts));
            recoveredAccounts.addAndGet(accounts.size());
            accounts.forEach((id, account) -> recoveredEntries.addAndGet(Tail.size(account.tail())));
        }
        // Transfers, jobs and the like after the accounts their steps touch.
        copy.others().forEach((kind, records) -> kind.recoverRecords(hazelcast, records));
        joiningNanos += System.nanoTime() - joining;
    }

    /**
     * {@code account} with its tail holding every entry of {@code history} (by seq) that runs without a gap up to its
     * version, and its own tail's entries where the history lacks them.
     */
    static Account withHistory(String accountId, Account account, Map<Long, JournalEntry> history) {
        Map<Long, JournalEntry> bySeq = new HashMap<>(history);
        account.tailEntries(accountId).forEach(entry -> bySeq.putIfAbsent(entry.seq(), entry));
        if (!bySeq.containsKey(account.version())) {
            return account;
        }
        long oldest = account.version();
        while (bySeq.containsKey(oldest - 1)) {
            oldest--;
        }
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        for (long seq = oldest; seq <= account.version(); seq++) {
            tail.writeBytes(Tail.encode(bySeq.get(seq)));
        }
        return account.withTail(tail.toByteArray());
    }

    /** The key of an account's record on the disk. */
    static byte[] accountKey(String accountId) {
        byte[] id = accountId.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[id.length + 1];
        key[0] = ACCOUNT;
        System.arraycopy(id, 0, key, 1, id.length);
        return key;
    }

    private static StoredEntry stored(JournalEntry entry) {
        return new StoredEntry(entry.accountId(), entry.seq(), entry.txId(), Math.max(0, entry.at()),
                Tail.encode(entry));
    }

    /** An account as the disk keeps it: every field, the tail as its bytes. */
    static byte[] encode(Account account) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + account.tail().length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeLong(account.balance());
            out.writeLong(account.overdraftLimit());
            out.writeLong(account.version());
            out.writeLong(account.fence());
            out.writeLong(account.openingBalance());
            out.writeInt(account.conflicts());
            out.writeInt(account.tail().length);
            out.write(account.tail());
            out.writeByte(account.jobs().size());
            for (String job : account.jobs()) {
                out.writeUTF(job);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Account decode(byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readByte();
            if (format != 1) {
                throw new IllegalStateException("an account stored in an unknown format: " + format);
            }
            long balance = in.readLong();
            long overdraftLimit = in.readLong();
            long version = in.readLong();
            long fence = in.readLong();
            long openingBalance = in.readLong();
            int conflicts = in.readInt();
            byte[] tail = new byte[in.readInt()];
            in.readFully(tail);
            int jobCount = in.readByte();
            List<String> jobs = new ArrayList<>(jobCount);
            for (int i = 0; i < jobCount; i++) {
                jobs.add(in.readUTF());
            }
            return new Account(balance, overdraftLimit, version, fence, openingBalance, tail, jobs, conflicts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
