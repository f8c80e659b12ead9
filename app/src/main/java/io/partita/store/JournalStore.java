package io.partita.store;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptionsUniversal;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.rocksdb.WriteBufferManager;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * One member's journal on disk: entries by partition, account and seq, found by txId, deleted past the retention, and
 * exported, imported and dropped a partition at a time. A RocksDB database in the member's own directory.
 *
 * <b>Threads:</b> every method may be called from any thread. Writes ({@link #append}, {@link #write}, {@link
 * #holdPartition}, {@link #dropPartition}) never wait for the disk: they are queued to the {@link GroupCommitter}'s
 * thread, in one order, and their future completes there once the write is as durable as the {@link Durability} asks
 * (the {@code Now} forms wait for it). Reads ({@link #history}, {@link #find},
 * {@link #export}) and {@link #expireBefore} run on the caller's thread and may read the disk: not from partition
 * threads, except {@link #find} of a txId that is not there, which the bloom filters answer from memory almost always.
 * A write that fails fails its future ({@link StoreFailure}); a full queue refuses an {@link #append} at once ({@link
 * StoreBusy}), and makes the other writes wait for room.
 */
public final class JournalStore implements AutoCloseable {

    /*
     * Memory
     *
     * One LRU block cache of StoreSettings.cacheBytes holds data blocks, index and filter blocks (at high priority, so
     * that they stay), and is charged with the memtables through a write buffer manager; that bounds the store's native
     * memory. Nothing per entry is kept on the heap.
     *
     * Crash
     *
     * After a crash, opening the directory again replays the write-ahead log: every write whose future completed is
     * there (in FLUSH mode unless the machine itself went down). RocksDB locks the directory, so a second process
     * cannot open the same store.
     */

    static {
        NativeLibrary.load();
    }

    private static final int ENTRIES = 1;
    private static final int TXIDS = 2;
    private static final int EXPIRY = 3;
    private static final int RECORDS = 4;
    /**
     * The column families, at the indexes above, and how each is tuned ({@link #familyOptions}). The entries, their
     * txIds and their expiry records (by partition, then time: every partition grows at once) arrive in no key order
     * and are never rewritten, only deleted once past the retention, so each file a memtable flush makes overlaps the
     * whole first level: leveled compaction would rewrite the levels over and over as the history grows, and under
     * sustained writes its cost grew with the store (20 minutes of batches ended at 0.56x of their first rate, against
     * 0.85x tiered; {@code benchmarks/README.md}). They are compacted in tiers ({@code appendOnly}), waiting for 16
     * runs, the txIds (looked up by every new transaction, one bloom filter per run) for 8. The accounts' records are
     * few and rewritten, and keep RocksDB's leveled compaction and trigger of 4.
     */
    private static final List<Family> FAMILIES = List.of(new Family("default", false, 4, false),
            new Family("entries", false, 16, true), new Family("txids", true, 8, true),
            new Family("expiry", false, 16, true), new Family("records", true, 4, false));
    private static final int EXPIRY_DELETE_BATCH = 4_096;

    /**
     * A column family: its name, whether it is read by key (a bloom filter), its first-level compaction trigger (the
     * runs that wait, when compacted in tiers), and whether its keys are only ever added and deleted, never rewritten
     * (compacted in tiers).
     */
    private record Family(String name, boolean pointLookups, int firstLevelFiles, boolean appendOnly) {
    }

    private final StoreSettings settings;
    private final LRUCache cache;
    private final WriteBufferManager writeBuffers;
    private final DBOptions options;
    private final List<ColumnFamilyOptions> familyOptions;
    /**
     * What the family options refer to (bloom filter policies, tiered compaction options): native objects, closed with
     * them.
     */
    private final List<RocksObject> referenced = new ArrayList<>();
    private final List<ColumnFamilyHandle> families;
    private final RocksDB db;
    private final GroupCommitter committer;

    private JournalStore(StoreSettings settings, UnaryOperator<GroupCommitter.Sync> syncSeam) {
        this.settings = settings;
        this.cache = new LRUCache(settings.cacheBytes(), -1, false, 0.5);
        this.writeBuffers = new WriteBufferManager(settings.writeBufferBytes(), cache);
        this.options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setWriteBufferManager(writeBuffers).setMaxBackgroundJobs(2).setKeepLogFileNum(3)
                .setMaxTotalWalSize(4 * settings.writeBufferBytes());
        this.familyOptions = FAMILIES.stream().map(this::familyOptions).toList();
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (int i = 0; i < FAMILIES.size(); i++) {
            descriptors.add(new ColumnFamilyDescriptor(bytes(FAMILIES.get(i).name()), familyOptions.get(i)));
        }
        this.families = new ArrayList<>();
        try {
            Files.createDirectories(settings.directory());
            this.db = RocksDB.open(options, settings.directory().toString(), descriptors, families);
        } catch (RocksDBException | IOException e) {
            closeOptions();
            throw new StoreFailure("cannot open the store in " + settings.directory(), e);
        }
        GroupCommitter.Sync walSync = () -> db.syncWal();
        this.committer = new GroupCommitter(db, settings.durability(), syncSeam.apply(walSync),
                settings.maxQueuedWrites(), settings.directory().getFileName().toString());
    }

    /** Opens (or creates) the store in {@code settings.directory()}. */
    public static JournalStore open(StoreSettings settings) {
        return new JournalStore(settings, UnaryOperator.identity());
    }

    /** For tests that watch the sync: {@code seam} wraps the store's own. */
    static JournalStore open(StoreSettings settings, UnaryOperator<GroupCommitter.Sync> seam) {
        return new JournalStore(settings, seam);
    }

    private ColumnFamilyOptions familyOptions(Family tuning) {
        boolean pointLookups = tuning.pointLookups();
        int firstLevelFiles = tuning.firstLevelFiles();
        // Index and filter blocks are partitioned (a small top level, pinned, over 4 KiB partitions that the cache
        // holds like data blocks): whole ones grow with their file, and one larger than a shard of the cache is never
        // cached, so every lookup would read it from the file again (a 2 million key file's filter is 2.5 MB).
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache)
                .setCacheIndexAndFilterBlocks(true).setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setPinL0FilterAndIndexBlocksInCache(true).setPinTopLevelIndexAndFilter(true)
                .setIndexType(IndexType.kTwoLevelIndexSearch).setMetadataBlockSize(4_096);
        if (pointLookups) {
            // 10 bits a key: about 1% false positives, so a txId that is not there almost never reads a data block.
            BloomFilter filter = new BloomFilter(10);
            referenced.add(filter);
            table.setFilterPolicy(filter).setWholeKeyFiltering(true).setPartitionFilters(true);
        }
        long perFamily = Math.max(1L << 20, settings.writeBufferBytes() / 4);
        ColumnFamilyOptions family = new ColumnFamilyOptions().setTableFormatConfig(table)
                .setWriteBufferSize(perFamily).setMaxWriteBufferNumber(2)
                .setCompressionType(CompressionType.LZ4_COMPRESSION).setLevelCompactionDynamicLevelBytes(true)
                .setLevel0FileNumCompactionTrigger(firstLevelFiles)
                // Writes slow down, then stop, only well past the trigger (RocksDB's 20 and 36 for its trigger of 4).
                .setLevel0SlowdownWritesTrigger(firstLevelFiles + 16).setLevel0StopWritesTrigger(firstLevelFiles + 32);
        if (tuning.appendOnly()) {
            // Tiered (universal) compaction: runs of about the same size (within 10%) are merged into one, and all of
            // them once the newer runs hold twice the oldest (RocksDB's default bound on the disk's overhead, 200%),
            // where leveled compaction rewrote each level's overlap with every file pushed into it. A write is
            // rewritten fewer times, and that count no longer grows with the history; the disk may hold up to three
            // times the history between full merges.
            CompactionOptionsUniversal tiers = new CompactionOptionsUniversal().setSizeRatio(10)
                    .setMaxSizeAmplificationPercent(200);
            referenced.add(tiers);
            family.setCompactionStyle(CompactionStyle.UNIVERSAL).setCompactionOptionsUniversal(tiers);
        }
        if (pointLookups) {
            // A bloom filter over the memtables' keys too (5% of their size): a txId that is not there is answered
            // without a walk of the skip list, which every new transaction's exactly-once check would cost.
            family.setMemtablePrefixBloomSizeRatio(0.05).setMemtableWholeKeyFiltering(true);
        }
        return family;
    }

    public StoreSettings settings() {
        return settings;
    }

    /**
     * Writes {@code entries} of {@code partition}, atomically, with the txId and retention records that go with
     * them; an entry with an account and seq already stored replaces it. Checks and encodes them on the caller's
     * thread (an {@link IllegalArgumentException} for an id too long); the future completes once they are durable.
     */
    public CompletableFuture<Void> append(int partition, List<StoredEntry> entries) {
        GroupCommitter.Write write = encode(partition, entries, List.of(), false);
        return committer.submit(write);
    }

    /**
     * A write, encoded (and checked) now, on the caller's thread, to be queued with {@link #write}: {@code entries} of
     * {@code partition} (as {@link #append} does), {@code records} of the partition (a record with a null value is
     * deleted), and, with {@code hold}, that this disk holds a copy of the partition. The write-through path of a
     * member's own replicas: it costs a write of the log, no disk read.
     */
    public Prepared prepare(int partition, List<StoredEntry> entries, List<StoredRecord> records, boolean hold) {
        return new Prepared(encode(partition, entries, records, hold));
    }

    /** {@link #prepare} and {@link #write}, waited for: returns once it is durable, or throws {@link StoreFailure}. */
    public void writeNow(int partition, List<StoredEntry> entries, List<StoredRecord> records, boolean hold) {
        await(write(List.of(prepare(partition, entries, records, hold))));
    }

    /**
     * Queues {@code writes} as one, in their order, behind every write queued before: one place in the queue, one
     * future, applied in one atomic batch (an operation's writes on many accounts). Waits only while the queue is full
     * (the changes they record are made already); the future completes once they are in the operating system's hands
     * ({@code FLUSH}) or also synced ({@code FSYNC}, one sync for every write of the round).
     */
    public CompletableFuture<Void> write(List<Prepared> writes) {
        if (writes.size() == 1) {
            return committer.submitWaiting(writes.get(0).write);
        }
        List<GroupCommitter.Write> all = writes.stream().map(prepared -> prepared.write).toList();
        return committer.submitWaiting(batch -> {
            for (GroupCommitter.Write write : all) {
                write.addTo(batch);
            }
        });
    }

    /**
     * Returns once every write queued before this call is written or has failed (a failed round wrote nothing, so a
     * read may go on): reads after it see them.
     */
    private void awaitQueued() {
        committer.submitWaiting(batch -> { }).handle((done, failure) -> null).join();
    }

    /** A write encoded on its caller's thread ({@link #prepare}), not queued yet. */
    public static final class Prepared {

        private final GroupCommitter.Write write;

        private Prepared(GroupCommitter.Write write) {
            this.write = write;
        }
    }

    /** Waits for {@code write}; its failure is thrown as a {@link StoreFailure}. */
    public static void await(CompletableFuture<Void> write) {
        try {
            write.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof StoreFailure failure ? failure
                    : new StoreFailure("write failed", e.getCause());
        }
    }

    /**
     * Writes, now, those of {@code entries} whose account and seq the store does not hold yet, and answers how many:
     * a copy brought from another member's disk adds what this one lacks and never replaces what it holds (the entry a
     * live account recorded under a seq wins over one another disk kept under it). Call it from one thread per
     * partition (its partition thread), so that nothing is written between the check and the write.
     */
    public int writeAbsent(int partition, List<StoredEntry> entries) {
        awaitQueued();
        // One walk of an iterator over the entries' keys in order, rather than a read per entry: where this disk holds
        // a run of them (another copy of the same history), the walk steps from one to the next; where it holds none,
        // one seek passes over them all.
        byte[][] keys = new byte[entries.size()][];
        for (int i = 0; i < keys.length; i++) {
            StoredEntry entry = entries.get(i);
            keys[i] = Keys.entry(partition, Keys.id(entry.accountId()), entry.seq());
        }
        List<StoredEntry> absent = new ArrayList<>(entries.size());
        walkEntries(partition, keys, (i, it) -> {
            byte[] key = keys[i];
            for (int steps = 0; steps < 4 && it.isValid() && Arrays.compareUnsigned(it.key(), key) < 0; steps++) {
                it.next();
            }
            if (it.isValid() && Arrays.compareUnsigned(it.key(), key) < 0) {
                it.seek(key);
            }
            if (!it.isValid() || !Arrays.equals(it.key(), key)) {
                absent.add(entries.get(i));
            }
        });
        if (!absent.isEmpty()) {
            writeNow(partition, absent, List.of(), false);
        }
        return absent.size();
    }

    /**
     * The indexes of those {@code runs} of which this store lacks at least one entry (an account and seq it does not
     * hold): the runs another disk's {@link #writeAbsent} would add to, told by one walk over the keys without the
     * entries themselves being sent. Call it where {@link #writeAbsent} is called, on the partition's thread.
     */
    public BitSet lacking(int partition, List<SeqRun> runs) {
        awaitQueued();
        BitSet lacking = new BitSet();
        byte[][] newest = new byte[runs.size()][];
        for (int i = 0; i < newest.length; i++) {
            newest[i] = Keys.entry(partition, Keys.id(runs.get(i).accountId()), runs.get(i).newest());
        }
        walkEntries(partition, newest, (i, it) -> {
            SeqRun run = runs.get(i);
            byte[] expected = newest[i].clone();
            it.seek(expected);
            // The account's entries come newest first: the run is held whole when its keys follow one another.
            for (long seq = run.newest(); seq >= run.oldest(); seq--) {
                Keys.entrySeq(expected, seq);
                if (!it.isValid() || !Arrays.equals(it.key(), expected)) {
                    lacking.set(i);
                    break;
                }
                it.next();
            }
        });
        return lacking;
    }

    /** A step of {@link #walkEntries}: the index of the next key, and the iterator, left where the last step left it. */
    @FunctionalInterface
    private interface WalkStep {
        void at(int index, RocksIterator it);
    }

    /**
     * One walk through {@code partition}'s entries, visiting {@code keys} (entry keys of that partition) in key order,
     * so that the iterator goes one way through the partition's range. It starts sought to the first key; each step
     * moves it on as it needs. The cache is not filled: the walk reads what a request would not.
     */
    private void walkEntries(int partition, byte[][] keys, WalkStep step) {
        if (keys.length == 0) {
            return;
        }
        Integer[] order = new Integer[keys.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        try (Slice upper = new Slice(Keys.partitionEnd(partition));
             ReadOptions options = new ReadOptions().setIterateUpperBound(upper).setFillCache(false);
             RocksIterator it = db.newIterator(families.get(ENTRIES), options)) {
            it.seek(keys[order[0]]);
            for (int i : order) {
                step.at(i, it);
            }
            check(it);
        }
    }

    /** The keys and values of a write, encoded (and checked) on the caller's thread. */
    private GroupCommitter.Write encode(int partition, List<StoredEntry> entries, List<StoredRecord> records,
                                        boolean hold) {
        Keys.checkPartition(partition);
        int count = entries.size();
        byte[][] keys = new byte[count * 3][];
        byte[][] values = new byte[count * 3][];
        for (int i = 0; i < count; i++) {
            StoredEntry entry = entries.get(i);
            byte[] account = Keys.id(entry.accountId());
            byte[] txId = Keys.id(entry.txId());
            keys[3 * i] = Keys.entry(partition, account, entry.seq());
            values[3 * i] = Keys.entryValue(txId, entry.at(), entry.payload());
            keys[3 * i + 1] = Keys.txId(partition, account, txId);
            values[3 * i + 1] = Keys.longBytes(entry.seq());
            keys[3 * i + 2] = Keys.expiry(partition, entry.at(), account, entry.seq());
            values[3 * i + 2] = txId;
        }
        byte[][] recordKeys = new byte[records.size()][];
        for (int i = 0; i < recordKeys.length; i++) {
            recordKeys[i] = Keys.record(partition, records.get(i).key());
        }
        byte[] held = hold ? Keys.held(partition) : null;
        return batch -> {
            for (int i = 0; i < keys.length; i++) {
                batch.put(families.get(1 + i % 3), keys[i], values[i]);
            }
            for (int i = 0; i < recordKeys.length; i++) {
                byte[] value = records.get(i).value();
                if (value == null) {
                    batch.delete(families.get(RECORDS), recordKeys[i]);
                } else {
                    batch.put(families.get(RECORDS), recordKeys[i], value);
                }
            }
            if (held != null) {
                batch.put(families.get(0), held, new byte[0]);
            }
        };
    }

    /** Every record of {@code partition}, to {@code sink} on the caller's thread, as of one moment (a snapshot). */
    public long records(int partition, Consumer<StoredRecord> sink) {
        return scan(RECORDS, partition, (key, value) -> sink.accept(new StoredRecord(Keys.recordKey(key), value)));
    }

    /**
     * Every key and value of {@code family} in {@code partition}, in key order, as of one moment (a snapshot) that
     * follows every write queued before this call: a partition's share sent with a migration, or read back, holds what
     * its operations have queued.
     */
    private long scan(int family, int partition, BiConsumer<byte[], byte[]> each) {
        awaitQueued();
        long read = 0;
        Snapshot snapshot = db.getSnapshot();
        try (Slice upper = new Slice(Keys.partitionEnd(partition));
             ReadOptions options = new ReadOptions().setSnapshot(snapshot).setIterateUpperBound(upper)
                     .setFillCache(false);
             RocksIterator it = db.newIterator(families.get(family), options)) {
            for (it.seek(Keys.partition(partition)); it.isValid(); it.next()) {
                each.accept(it.key(), it.value());
                read++;
            }
            check(it);
        } finally {
            db.releaseSnapshot(snapshot);
        }
        return read;
    }

    /** Up to {@code limit} of an account's entries with a seq below {@code beforeSeq}, newest first. */
    public HistoryPage history(int partition, String accountId, long beforeSeq, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        if (beforeSeq <= 0) {
            return new HistoryPage(List.of(), -1);
        }
        byte[] account = Keys.id(accountId);
        byte[] prefix = Keys.account(partition, account);
        List<StoredEntry> page = new ArrayList<>(Math.min(limit, 256));
        boolean more = false;
        try (Slice upper = new Slice(Keys.end(prefix));
             ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
             RocksIterator it = db.newIterator(families.get(ENTRIES), read)) {
            for (it.seek(Keys.entry(partition, account, beforeSeq - 1)); it.isValid(); it.next()) {
                if (page.size() == limit) {
                    more = true;
                    break;
                }
                page.add(Keys.decodeEntry(it.key(), it.value()));
            }
            check(it);
        }
        long next = more ? page.get(page.size() - 1).seq() : -1;
        return new HistoryPage(page, next);
    }

    /**
     * The entry of {@code accountId} recorded under {@code txId}, if the store holds it: the exactly-once check. A txId
     * that is not there costs the bloom filters of the txId family (in the cache) and the memtables, as a rule no read
     * from disk; one that is there costs two reads of a block. Only an entry with a seq at most {@code throughSeq}:
     * what an account at that version counts (a disk may hold entries beyond it; see {@code account.LedgerHost#known}).
     */
    public Optional<StoredEntry> find(int partition, String accountId, String txId, long throughSeq) {
        byte[] account = Keys.id(accountId);
        byte[] tx = Keys.id(txId);
        try {
            byte[] seq = db.get(families.get(TXIDS), Keys.txId(partition, account, tx));
            if (seq == null || Keys.longAt(seq, 0) > throughSeq) {
                return Optional.empty();
            }
            byte[] key = Keys.entry(partition, account, Keys.longAt(seq, 0));
            byte[] value = db.get(families.get(ENTRIES), key);
            // The seq may since hold another txId (an entry replaced by a merge): then this txId is not there.
            if (value == null || !Arrays.equals(Keys.txIdOf(value), tx)) {
                return Optional.empty();
            }
            return Optional.of(Keys.decodeEntry(key, value));
        } catch (RocksDBException e) {
            throw new StoreFailure("read failed", e);
        }
    }

    /**
     * Deletes every entry recorded before {@code cutoffAt} (epoch milliseconds), with its txId record: the retention.
     * Walks the expiry family one partition at a time, in atomic batches; returns the entries deleted. Runs on the
     * caller's thread (a background one): it reads and writes the disk.
     */
    public long expireBefore(long cutoffAt) {
        long deleted = 0;
        int partition = 0;
        try (RocksIterator it = db.newIterator(families.get(EXPIRY));
             WriteOptions write = new WriteOptions()) {
            it.seekToFirst();
            while (it.isValid()) {
                partition = Keys.partitionOf(it.key());
                byte[] bound = Keys.expiryBound(partition, cutoffAt);
                List<byte[]> expired = new ArrayList<>();
                while (it.isValid() && Arrays.compareUnsigned(it.key(), bound) < 0) {
                    expired.add(it.key());
                    expired.add(it.value());
                    it.next();
                    if (expired.size() == 2 * EXPIRY_DELETE_BATCH) {
                        deleted += deleteExpired(expired, write);
                        expired.clear();
                    }
                }
                deleted += deleteExpired(expired, write);
                if (partition == Keys.MAX_PARTITION) {
                    break;
                }
                it.seek(Keys.partition(partition + 1));
            }
            check(it);
        } catch (RocksDBException e) {
            throw new StoreFailure("retention failed", e);
        }
        return deleted;
    }

    /**
     * Deletes the entries named by {@code expired} (expiry key, txId, in turn) where they still hold that txId, and
     * the txIds' records where they still name that entry's seq (an entry a merge recorded again under a new seq has
     * a later expiry record of its own): two multi-gets for the batch, then one atomic write.
     */
    private int deleteExpired(List<byte[]> expired, WriteOptions write) throws RocksDBException {
        int count = expired.size() / 2;
        if (count == 0) {
            return 0;
        }
        List<byte[]> entryKeys = new ArrayList<>(count);
        List<byte[]> txIdKeys = new ArrayList<>(count);
        for (int i = 0; i < expired.size(); i += 2) {
            entryKeys.add(Keys.entryOfExpiry(expired.get(i)));
            txIdKeys.add(Keys.txIdOfExpiry(expired.get(i), expired.get(i + 1)));
        }
        List<byte[]> values = db.multiGetAsList(Collections.nCopies(count, families.get(ENTRIES)), entryKeys);
        List<byte[]> seqs = db.multiGetAsList(Collections.nCopies(count, families.get(TXIDS)), txIdKeys);
        int deleted = 0;
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < count; i++) {
                byte[] expiryKey = expired.get(2 * i);
                byte[] value = values.get(i);
                if (value != null && Arrays.equals(Keys.txIdOf(value), expired.get(2 * i + 1))) {
                    batch.delete(families.get(ENTRIES), entryKeys.get(i));
                    deleted++;
                }
                byte[] seq = seqs.get(i);
                if (seq != null && Keys.longAt(seq, 0) == Keys.seqOfExpiry(expiryKey)) {
                    batch.delete(families.get(TXIDS), txIdKeys.get(i));
                }
                batch.delete(families.get(EXPIRY), expiryKey);
            }
            db.write(write, batch);
        }
        return deleted;
    }

    /**
     * Streams every entry of {@code partition}, as of one moment (a snapshot), in chunks of at most {@code chunkSize},
     * to {@code sink} on the caller's thread: a partition's share, for its new owner or backup to {@link #append}.
     * The txId and retention records are not sent: the importing side writes them from the entries.
     */
    public long export(int partition, int chunkSize, Consumer<List<StoredEntry>> sink) {
        List<StoredEntry> chunk = new ArrayList<>(chunkSize);
        long exported = scan(ENTRIES, partition, (key, value) -> {
            chunk.add(Keys.decodeEntry(key, value));
            if (chunk.size() == chunkSize) {
                sink.accept(List.copyOf(chunk));
                chunk.clear();
            }
        });
        if (!chunk.isEmpty()) {
            sink.accept(List.copyOf(chunk));
        }
        return exported;
    }

    /**
     * Up to {@code limit} of {@code partition}'s entries in key order, from the key {@code from} on (from the first when
     * null): a partition's share a run at a time, so that a share of any size is read, sent and written in bounded
     * memory. Each run is read as the store is then (no snapshot spans the runs): a migration runs while no write of the
     * partition does. The txId and retention records are not sent, as in {@link #export}.
     */
    public SharePage share(int partition, byte[] from, int limit) {
        Keys.checkPartition(partition);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        byte[] start = Keys.partition(partition);
        if (from != null && (Arrays.compareUnsigned(from, start) < 0
                || Arrays.compareUnsigned(from, Keys.partitionEnd(partition)) > 0)) {
            throw new IllegalArgumentException("a share's next run starts within its partition");
        }
        awaitQueued();
        List<StoredEntry> entries = new ArrayList<>(Math.min(limit, 4_096));
        try (Slice upper = new Slice(Keys.partitionEnd(partition));
             ReadOptions options = new ReadOptions().setIterateUpperBound(upper).setFillCache(false);
             RocksIterator it = db.newIterator(families.get(ENTRIES), options)) {
            for (it.seek(from == null ? start : from); it.isValid(); it.next()) {
                if (entries.size() == limit) {
                    return new SharePage(entries, it.key());
                }
                entries.add(Keys.decodeEntry(it.key(), it.value()));
            }
            check(it);
        }
        return new SharePage(entries, null);
    }

    /** Records that this disk holds a copy of {@code partition} (see {@link #heldPartitions}). */
    public CompletableFuture<Void> holdPartition(int partition) {
        byte[] key = Keys.held(partition);
        return committer.submitWaiting(batch -> batch.put(families.get(0), key, new byte[0]));
    }

    /** Deletes everything of {@code partition}: its entries, their records, and that this disk holds it. */
    public CompletableFuture<Void> dropPartition(int partition) {
        byte[] from = Keys.partition(partition);
        byte[] to = Keys.partitionEnd(partition);
        byte[] held = Keys.held(partition);
        return committer.submitWaiting(batch -> {
            for (int family = ENTRIES; family <= RECORDS; family++) {
                batch.deleteRange(families.get(family), from, to);
            }
            batch.delete(families.get(0), held);
        });
    }

    /** {@link #dropPartition}, waited for, in its place behind the writes queued before it. */
    public void dropPartitionNow(int partition) {
        await(dropPartition(partition));
    }

    /** The partitions this disk holds a copy of: those held and not dropped since. */
    public BitSet heldPartitions() {
        BitSet held = new BitSet();
        byte[] prefix = Keys.heldPrefix();
        try (Slice upper = new Slice(Keys.end(prefix));
             ReadOptions read = new ReadOptions().setIterateUpperBound(upper);
             RocksIterator it = db.newIterator(families.get(0), read)) {
            for (it.seek(prefix); it.isValid(); it.next()) {
                held.set(Keys.heldPartition(it.key()));
            }
            check(it);
        }
        return held;
    }

    /**
     * Records, synced before it returns whatever the mode, that {@code clusterName} holds data on this disk; keeps the
     * first marker if there is one. Call it once the cluster has written its first data, off partition threads.
     */
    public DataMarker markHoldsData(String clusterName, long now) {
        Optional<DataMarker> existing = marker();
        if (existing.isPresent()) {
            return existing.get();
        }
        DataMarker marker = new DataMarker(clusterName, now);
        try (WriteOptions write = new WriteOptions().setSync(true)) {
            db.put(families.get(0), write, Keys.MARKER, encode(marker));
        } catch (RocksDBException e) {
            throw new StoreFailure("cannot write the data marker", e);
        }
        return marker;
    }

    /** The marker, if a cluster has held data on this disk. */
    public Optional<DataMarker> marker() {
        try {
            byte[] value = db.get(families.get(0), Keys.MARKER);
            return value == null ? Optional.empty() : Optional.of(decode(value));
        } catch (RocksDBException e) {
            throw new StoreFailure("cannot read the data marker", e);
        }
    }

    /**
     * Records, synced before it returns whatever the mode, the names of the cluster's members as this member sees them
     * now (itself included), replacing the last record. A restart reads it back ({@link #members}) to tell whether
     * the members present can vouch for its copy. Off partition threads.
     */
    public void recordMembers(Collection<String> names) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(names.size());
            for (String name : names) {
                out.writeUTF(name);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try (WriteOptions write = new WriteOptions().setSync(true)) {
            db.put(families.get(0), write, Keys.MEMBERS, bytes.toByteArray());
        } catch (RocksDBException e) {
            throw new StoreFailure("cannot record the members", e);
        }
    }

    /** The members {@link #recordMembers} last recorded, or empty when none were. */
    public Set<String> members() {
        try {
            byte[] value = db.get(families.get(0), Keys.MEMBERS);
            if (value == null) {
                return Set.of();
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
                Set<String> names = new LinkedHashSet<>();
                for (int i = in.readInt(); i > 0; i--) {
                    names.add(in.readUTF());
                }
                return Collections.unmodifiableSet(names);
            }
        } catch (RocksDBException | IOException e) {
            throw new StoreFailure("cannot read the members", e);
        }
    }

    /** Writes waiting for the committer now. */
    public int queuedWrites() {
        return committer.queued();
    }

    /** Rounds committed and syncs made since the store opened: a round count well below the writes is group commit. */
    public long rounds() {
        return committer.rounds();
    }

    public long syncs() {
        return committer.syncs();
    }

    /** Bytes the block cache holds now, memtables included: the store's native memory, less the engine's own. */
    public long cacheUsage() {
        return cache.getUsage();
    }

    /** A RocksDB property summed over the column families, such as {@code rocksdb.cur-size-all-mem-tables}. */
    public long property(String name) {
        try {
            return db.getAggregatedLongProperty(name);
        } catch (RocksDBException e) {
            throw new StoreFailure("cannot read " + name, e);
        }
    }

    /** Bytes of the store's files on disk. */
    public long diskBytes() {
        try (Stream<Path> files = Files.walk(settings.directory())) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        } catch (IOException e) {
            throw new StoreFailure("cannot list " + settings.directory(), e);
        }
    }

    /** Writes what is queued, then closes the engine (which flushes nothing it need not: the log has it all). */
    @Override
    public void close() {
        committer.close();
        families.forEach(ColumnFamilyHandle::close);
        db.close();
        closeOptions();
    }

    private void closeOptions() {
        options.close();
        familyOptions.forEach(ColumnFamilyOptions::close);
        referenced.forEach(RocksObject::close);
        writeBuffers.close();
        cache.close();
    }

    private static void check(RocksIterator it) {
        try {
            it.status();
        } catch (RocksDBException e) {
            throw new StoreFailure("read failed", e);
        }
    }

    private static byte[] bytes(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] encode(DataMarker marker) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(marker.clusterName());
            out.writeLong(marker.since());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static DataMarker decode(byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            return new DataMarker(in.readUTF(), in.readLong());
        } catch (IOException e) {
            throw new IllegalStateException("an unreadable data marker", e);
        }
    }
}
