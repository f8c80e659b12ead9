package io.partita.node;

import io.partita.store.JournalStore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * The writes to this member's disk that the operation running on this partition thread answers after, instead of
 * waiting for them on the thread. A write made on a partition thread must be durable before the call that made it is
 * answered; the ledger's own operations ({@link BackedUpCalls}: transactions, batches, job steps, opening an account,
 * and their backups) open a scope, collect the writes their processors make, queue them as one when the processors
 * are done, and send their answer (or a backup's acknowledgement) from the disk's committer thread once that write is
 * durable. So the partition thread goes on to the next operation while the disk writes, and one write of the log (one
 * sync, in fsync mode) covers every operation queued at that moment. Any other operation (Hazelcast's own, a
 * transfer's or a job's record) opens no scope, and its writes are waited for where they are made, as before.
 *
 * <p><b>Threads:</b> a scope belongs to the partition thread that opened it (a thread local); it is closed before the
 * operation answers, and what it collected is handed to the committer as one write, whose future the answer waits
 * for.
 */
public final class DiskAcks {

    private static final ThreadLocal<DiskAcks> CURRENT = new ThreadLocal<>();

    /** The writes this operation made, not queued yet; all to one store (a member has one). */
    private final List<JournalStore.Prepared> writes = new ArrayList<>(2);
    private JournalStore store;

    private DiskAcks() {
    }

    /**
     * {@code write} to {@code store} is durable before the current call is answered: kept by the operation's scope,
     * which queues all of its writes as one when it closes, or queued and waited for here when there is none (a
     * {@link io.partita.store.StoreFailure} is thrown then).
     */
    public static void write(JournalStore store, JournalStore.Prepared write) {
        DiskAcks scope = CURRENT.get();
        if (scope == null) {
            JournalStore.await(store.write(List.of(write)));
            return;
        }
        if (scope.store != null && scope.store != store) {
            throw new IllegalStateException("one operation's writes go to one member's store");
        }
        scope.store = store;
        scope.writes.add(write);
    }

    /**
     * What {@code work} answered, run in a scope of its own (or in the one open already), and the future of the disk
     * writes it made ({@link #close}).
     */
    static <T> Ran<T> around(Callable<T> work) throws Exception {
        DiskAcks scope = open();
        T answer;
        CompletableFuture<Void> written;
        try {
            answer = work.call();
        } finally {
            written = close(scope);
        }
        return new Ran<>(answer, written);
    }

    /** An operation's answer, and the future of the disk writes it made: null when there is nothing to wait for. */
    record Ran<T>(T answer, CompletableFuture<Void> written) {
    }

    /** Opens a scope on this thread; {@link #close} it in a finally block. A scope already open is kept. */
    private static DiskAcks open() {
        if (CURRENT.get() != null) {
            return null;
        }
        DiskAcks scope = new DiskAcks();
        CURRENT.set(scope);
        return scope;
    }

    /**
     * Closes the scope {@link #open} gave (null: an outer one stays open, and takes this operation's writes too),
     * queues its writes as one, behind everything queued before, and answers the future of their durability: null when
     * there were none. On the partition thread, before anything else of the partition runs, so the disk's order stays
     * the order of the changes.
     */
    private static CompletableFuture<Void> close(DiskAcks scope) {
        if (scope == null) {
            return null;
        }
        CURRENT.remove();
        return scope.writes.isEmpty() ? null : scope.store.write(scope.writes);
    }
}
