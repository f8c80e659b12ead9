package io.partita.bench.store;

import io.partita.store.StoredEntry;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One facade over the engines compared for the journal on disk, each doing the journal's five things the same way:
 * group-committed appends of a partition's batch, an account's newest page, a txId lookup, the retention, and a
 * partition's export. {@link Engine} picks the implementation.
 */
public interface JournalEngine extends AutoCloseable {

    /** The engines compared: the store the node uses, and H2's MVStore behind the same group committer design. */
    enum Engine {
        ROCKSDB,
        MVSTORE;

        JournalEngine open(Path directory, boolean fsync) {
            return this == ROCKSDB ? new RocksJournal(directory, fsync) : new MvStoreJournal(directory, fsync);
        }
    }

    /** Completes once the batch is written to the OS, or synced with {@code fsync}. */
    CompletableFuture<Void> append(int partition, List<StoredEntry> entries);

    List<StoredEntry> newest(int partition, String accountId, int limit);

    boolean contains(int partition, String accountId, String txId);

    long expireBefore(long cutoffAt);

    long export(int partition, Consumer<List<StoredEntry>> sink);

    /** Bytes on disk once everything written is in files (flushed, not compacted). */
    long diskBytes();

    /** The engine's own account of the memory it holds, in words. */
    String memory();

    @Override
    void close();
}
