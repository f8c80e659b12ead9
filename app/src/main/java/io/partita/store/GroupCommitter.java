package io.partita.store;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes what callers queue, many writes per round, and completes each caller's future once its round is as durable as
 * the mode asks: written to the OS ({@link Durability#FLUSH}) or also synced ({@link Durability#FSYNC}).
 *
 * <p><b>Threads:</b> any thread {@link #submit}s, without ever waiting: the write is queued, or refused at once with
 * {@link StoreBusy} when the queue is full. A write that must not be refused (its change is made already, in memory)
 * is queued with {@link #submitWaiting}, which waits for room only while the queue is full. Writes are committed in the
 * order they were queued, so a write's future completes after those of every write queued before it. The committer
 * thread alone writes to the engine: it takes everything queued (up to {@link #MAX_ROUND} writes), applies it as one
 * atomic batch, syncs once if the mode asks, and then completes the round's futures, on its own thread, so what
 * callers chain on them must be short or hop to an executor of their own. The counters are atomic.
 *
 * <p>Group commit: while one round syncs, the next round's writes queue up, and the next sync covers all of them. So
 * the syncs per second are bounded by the disk, not by the writers, and a busier store syncs more writes at once.
 *
 * <p>Failure: a round that fails (a full disk, an I/O error) fails every future in it, and none of its writes is
 * acknowledged. The batch is atomic, so none of them is half applied; some may be fully applied and then found by a
 * retry, which is what a retry of an unacknowledged write may find anyway.
 */
final class GroupCommitter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);
    static final int MAX_ROUND = 4_096;

    /** A queued write: its mutations, added to the round's batch on the committer thread. */
    interface Write {
        void addTo(WriteBatch batch) throws RocksDBException;
    }

    /** The sync of the write-ahead log; a seam for the tests that check what waits for it. */
    interface Sync {
        void sync() throws RocksDBException;
    }

    private record Pending(Write write, CompletableFuture<Void> done) {
    }

    private final RocksDB db;
    private final boolean fsync;
    private final Sync sync;
    private final BlockingQueue<Pending> queue;
    private final Thread thread;
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private volatile boolean running = true;

    GroupCommitter(RocksDB db, Durability durability, Sync sync, int maxQueued, String name) {
        this.db = db;
        this.fsync = durability == Durability.FSYNC;
        this.sync = sync;
        this.queue = new ArrayBlockingQueue<>(maxQueued);
        this.thread = new Thread(this::run, "partita-store-commit-" + name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues {@code write}; the future completes once it is durable, or fails. Never waits. */
    CompletableFuture<Void> submit(Write write) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!running) {
            done.completeExceptionally(new IllegalStateException("the store is closed"));
        } else if (!queue.offer(new Pending(write, done))) {
            done.completeExceptionally(new StoreBusy(queue.size()));
        }
        return done;
    }

    /**
     * Queues {@code write}, waiting for room while the queue is full (the only wait: the committer drains it without
     * waiting for anyone); the future completes once it is durable, or fails.
     */
    CompletableFuture<Void> submitWaiting(Write write) {
        Pending pending = new Pending(write, new CompletableFuture<>());
        boolean interrupted = false;
        try {
            while (running) {
                try {
                    if (queue.offer(pending, 100, TimeUnit.MILLISECONDS)) {
                        return pending.done;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        pending.done.completeExceptionally(new IllegalStateException("the store is closed"));
        return pending.done;
    }

    long rounds() {
        return rounds.get();
    }

    long syncs() {
        return syncs.get();
    }

    long writes() {
        return writes.get();
    }

    int queued() {
        return queue.size();
    }

    private void run() {
        List<Pending> round = new ArrayList<>();
        try (WriteOptions options = new WriteOptions().setSync(false)) {
            while (running || !queue.isEmpty()) {
                Pending first = queue.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                round.add(first);
                queue.drainTo(round, MAX_ROUND - 1);
                commit(round, options);
                round.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failQueued(new IllegalStateException("the store is closed"));
    }

    private void commit(List<Pending> round, WriteOptions options) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Pending pending : round) {
                pending.write.addTo(batch);
            }
            db.write(options, batch);
            if (fsync) {
                sync.sync();
                syncs.incrementAndGet();
            }
        } catch (RocksDBException | RuntimeException e) {
            LOG.warn("A store write of {} callers failed: {}", round.size(), e.toString());
            StoreFailure failure = new StoreFailure("write failed", e);
            round.forEach(pending -> pending.done.completeExceptionally(failure));
            return;
        }
        rounds.incrementAndGet();
        writes.addAndGet(round.size());
        round.forEach(pending -> pending.done.complete(null));
    }

    private void failQueued(RuntimeException failure) {
        Pending pending;
        while ((pending = queue.poll()) != null) {
            pending.done.completeExceptionally(failure);
        }
    }

    /** Writes what is queued, then stops; waits for the committer thread. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A submit that raced with the stop may have queued after the thread's last look.
        failQueued(new IllegalStateException("the store is closed"));
    }
}
