package io.partita.bench.store;

import io.partita.store.Durability;
import io.partita.store.JournalStore;
import io.partita.store.StoreSettings;
import io.partita.store.StoredEntry;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** The node's own store ({@link JournalStore}, RocksDB), with its default memory settings (64 MiB in all). */
final class RocksJournal implements JournalEngine {

    private final JournalStore store;

    RocksJournal(Path directory, boolean fsync) {
        this.store = JournalStore.open(StoreSettings.of(directory, fsync ? Durability.FSYNC : Durability.FLUSH));
    }

    @Override
    public CompletableFuture<Void> append(int partition, List<StoredEntry> entries) {
        return store.append(partition, entries);
    }

    @Override
    public List<StoredEntry> newest(int partition, String accountId, int limit) {
        return store.history(partition, accountId, Long.MAX_VALUE, limit).entries();
    }

    @Override
    public boolean contains(int partition, String accountId, String txId) {
        return store.find(partition, accountId, txId, Long.MAX_VALUE).isPresent();
    }

    @Override
    public long expireBefore(long cutoffAt) {
        return store.expireBefore(cutoffAt);
    }

    @Override
    public long export(int partition, Consumer<List<StoredEntry>> sink) {
        return store.export(partition, 1_024, sink);
    }

    @Override
    public long diskBytes() {
        return store.diskBytes();
    }

    @Override
    public String memory() {
        return String.format("block cache %,d B (memtables charged to it), memtables %,d B, table readers outside the"
                        + " cache %,d B", store.cacheUsage(),
                store.property("rocksdb.cur-size-all-mem-tables"),
                store.property("rocksdb.estimate-table-readers-mem"));
    }

    @Override
    public void close() {
        store.close();
    }
}
