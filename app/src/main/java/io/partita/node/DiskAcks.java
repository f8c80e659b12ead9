package io.partita.node;

import io.partita.store.JournalStore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The writes to this member's disk that the operation running on this partition thread answers after, instead of
 * waiting for them on the thread. A write made on a partition thread must be durable before the call that made it is
 * answered; the ledger's own operations ({@link BackedUpCalls}: transactions, batches, job steps, and their backups)
 * open a scope, collect the writes their processors queue, and send their answer (or a backup's acknowledgement) from
 * the disk's committer thread once the last of them is durable. So the partition thread goes on to the next
 * operation while the disk writes, and one write of the log (one sync, in fsync mode) covers every operation waiting
 * at that moment. Any other operation (Hazelcast's own, an account opened, a job's record) opens no scope, and its
 * writes are waited for where they are made, as before.
 *
 * <p><b>Threads:</b> a scope belongs to the partition thread that opened it (a thread local); it is closed before the
 * operation answers, and what it collected is handed to the committer's callbacks as a future.
 */
public final class DiskAcks {

    private static final ThreadLocal<DiskAcks> CURRENT = new ThreadLocal<>();

    private final List<CompletableFuture<Void>> writes = new ArrayList<>(2);

    private DiskAcks() {
    }

    /**
     * {@code write} is durable before the current call is answered: collected by the operation's scope, or waited for
     * here when there is none (a {@link io.partita.store.StoreFailure} is thrown then).
     */
    public static void await(CompletableFuture<Void> write) {
        DiskAcks scope = CURRENT.get();
        if (scope == null) {
            JournalStore.await(write);
        } else if (!write.isDone() || write.isCompletedExceptionally()) {
            scope.writes.add(write);
        }
    }

    /** Opens a scope on this thread; {@link #close} it in a finally block. A scope already open is kept. */
    static DiskAcks open() {
        DiskAcks open = CURRENT.get();
        if (open != null) {
            return null;
        }
        DiskAcks scope = new DiskAcks();
        CURRENT.set(scope);
        return scope;
    }

    /**
     * Closes the scope {@link #open} gave (null: an outer one stays open, and collects this operation's writes too),
     * and answers the future of its writes: null when there were none, or all are durable already.
     */
    static CompletableFuture<Void> close(DiskAcks scope) {
        if (scope == null) {
            return null;
        }
        CURRENT.remove();
        List<CompletableFuture<Void>> writes = scope.writes;
        if (writes.isEmpty()) {
            return null;
        }
        // Any of them failing fails the whole.
        return writes.size() == 1 ? writes.get(0) : CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }
}
