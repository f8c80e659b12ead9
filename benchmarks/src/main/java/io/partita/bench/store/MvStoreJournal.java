package io.partita.bench.store;

import io.partita.store.StoredEntry;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The alternative: H2's MVStore (pure Java, a copy-on-write B-tree in one file, its page cache on the heap), with the
 * same three maps as the RocksDB store (entries, txIds, expiry), string keys that sort the same way, and the same group
 * commit: a committer thread applies everything queued, then {@code commit()} (the changed pages written to the OS)
 * and, with fsync, {@code sync()}.
 * <b>Threads:</b> any thread appends (queued) and reads (MVMap reads are lock-free); the committer alone writes.
 */
final class MvStoreJournal implements JournalEngine {

    private static final int CACHE_MB = 64;

    private record Pending(int partition, List<StoredEntry> entries, CompletableFuture<Void> done) {
    }

    private final Path file;
    private final boolean fsync;
    private final MVStore store;
    private final MVMap<String, byte[]> entries;
    private final MVMap<String, Long> txIds;
    private final MVMap<String, String> expiry;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(10_000);
    private final Thread committer;
    private volatile boolean running = true;

    MvStoreJournal(Path directory, boolean fsync) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.file = directory.resolve("journal.mv.db");
        this.fsync = fsync;
        this.store = new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().cacheSize(CACHE_MB).open();
        this.entries = store.openMap("entries", new MVMap.Builder<String, byte[]>()
                .valueType(ByteArrayDataType.INSTANCE));
        this.txIds = store.openMap("txids");
        this.expiry = store.openMap("expiry");
        this.committer = new Thread(this::run, "mvstore-commit");
        this.committer.setDaemon(true);
        this.committer.start();
    }

    private static String partition(int partition) {
        return String.format("%05d/", partition);
    }

    private static String entryKey(int partition, String account, long seq) {
        return partition(partition) + account + '/' + String.format("%019d", Long.MAX_VALUE - seq);
    }

    @Override
    public CompletableFuture<Void> append(int partition, List<StoredEntry> batch) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!queue.offer(new Pending(partition, batch, done))) {
            done.completeExceptionally(new IllegalStateException("queue full"));
        }
        return done;
    }

    private void run() {
        List<Pending> round = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                round.add(first);
                queue.drainTo(round, 4_095);
                for (Pending pending : round) {
                    for (StoredEntry entry : pending.entries()) {
                        put(pending.partition(), entry);
                    }
                }
                store.commit();
                if (fsync) {
                    store.sync();
                }
                round.forEach(pending -> pending.done().complete(null));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                round.forEach(pending -> pending.done().completeExceptionally(e));
            }
            round.clear();
        }
    }

    private void put(int partition, StoredEntry entry) {
        byte[] txId = entry.txId().getBytes(StandardCharsets.UTF_8);
        byte[] value = ByteBuffer.allocate(9 + txId.length + entry.payload().length).put((byte) txId.length)
                .put(txId).putLong(entry.at()).put(entry.payload()).array();
        entries.put(entryKey(partition, entry.accountId(), entry.seq()), value);
        txIds.put(partition(partition) + entry.accountId() + '/' + entry.txId(), entry.seq());
        expiry.put(partition(partition) + String.format("%019d/", entry.at()) + entry.accountId() + '/' + entry.seq(),
                entry.txId());
    }

    private static StoredEntry decode(String key, byte[] value) {
        int slash = key.lastIndexOf('/');
        String account = key.substring(6, slash);
        long seq = Long.MAX_VALUE - Long.parseLong(key.substring(slash + 1));
        int txLength = value[0] & 0xFF;
        String txId = new String(value, 1, txLength, StandardCharsets.UTF_8);
        long at = ByteBuffer.wrap(value, 1 + txLength, 8).getLong();
        return new StoredEntry(account, seq, txId, at, Arrays.copyOfRange(value, 9 + txLength, value.length));
    }

    @Override
    public List<StoredEntry> newest(int partition, String accountId, int limit) {
        String prefix = partition(partition) + accountId + '/';
        List<StoredEntry> page = new ArrayList<>(limit);
        Cursor<String, byte[]> cursor = entries.cursor(prefix);
        while (page.size() < limit && cursor.hasNext()) {
            String key = cursor.next();
            if (!key.startsWith(prefix)) {
                break;
            }
            page.add(decode(key, cursor.getValue()));
        }
        return page;
    }

    @Override
    public boolean contains(int partition, String accountId, String txId) {
        Long seq = txIds.get(partition(partition) + accountId + '/' + txId);
        return seq != null && entries.containsKey(entryKey(partition, accountId, seq));
    }

    @Override
    public long expireBefore(long cutoffAt) {
        long deleted = 0;
        for (int partition = 0; partition < 271; partition++) {
            String prefix = partition(partition);
            String bound = prefix + String.format("%019d/", cutoffAt);
            List<String> expired = new ArrayList<>();
            Cursor<String, String> cursor = expiry.cursor(prefix, bound, false);
            while (cursor.hasNext()) {
                expired.add(cursor.next());
                expired.add(cursor.getValue());
            }
            for (int i = 0; i < expired.size(); i += 2) {
                String key = expired.get(i);
                int slash = key.lastIndexOf('/');
                String account = key.substring(26, slash);
                long seq = Long.parseLong(key.substring(slash + 1));
                if (key.compareTo(bound) < 0 && entries.remove(entryKey(partition, account, seq)) != null) {
                    deleted++;
                }
                txIds.remove(prefix + account + '/' + expired.get(i + 1));
                expiry.remove(key);
            }
        }
        store.commit();
        return deleted;
    }

    @Override
    public long export(int partition, Consumer<List<StoredEntry>> sink) {
        String prefix = partition(partition);
        long exported = 0;
        List<StoredEntry> chunk = new ArrayList<>();
        Cursor<String, byte[]> cursor = entries.cursor(prefix);
        while (cursor.hasNext()) {
            String key = cursor.next();
            if (!key.startsWith(prefix)) {
                break;
            }
            chunk.add(decode(key, cursor.getValue()));
            if (chunk.size() == 1_024) {
                sink.accept(List.copyOf(chunk));
                exported += chunk.size();
                chunk.clear();
            }
        }
        if (!chunk.isEmpty()) {
            sink.accept(List.copyOf(chunk));
            exported += chunk.size();
        }
        return exported;
    }

    @Override
    public long diskBytes() {
        return file.toFile().length();
    }

    @Override
    public String memory() {
        return String.format("page cache %,d B of %d MiB, on the heap", store.getCacheSizeUsed() * 1024L * 1024L,
                CACHE_MB);
    }

    @Override
    public void close() {
        running = false;
        try {
            committer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
    }
}
