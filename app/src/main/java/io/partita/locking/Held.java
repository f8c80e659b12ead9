package io.partita.locking;

import com.hazelcast.cp.lock.FencedLock;
import io.partita.account.TransactionPath;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Account locks held by the current thread, with their fences. Closing releases them in reverse order, on the thread
 * that took them. Use it in a try-with-resources block and nowhere else.
 */
public final class Held implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Held.class);

    record Taken(String accountId, FencedLock lock, long fence) {
    }

    private final List<Taken> taken;
    private final FencedWrites writes;

    Held(List<Taken> taken, FencedWrites writes) {
        this.taken = List.copyOf(taken);
        this.writes = writes;
    }

    /** The fence this holder's writes to {@code accountId} carry. */
    public long fence(String accountId) {
        for (Taken lock : taken) {
            if (lock.accountId().equals(accountId)) {
                return lock.fence();
            }
        }
        throw new IllegalArgumentException("No lock held on account " + accountId);
    }

    /**
     * Read, check and write one transaction on an account whose lock this holder has, on the calling thread.
     *
     * @throws io.partita.web.ApiException 503 when the lock turned out lost: nothing was written
     */
    public TxOutcome apply(String accountId, TxRequest request) {
        return writes.apply(fence(accountId), accountId, request);
    }

    /** This holder as a processing path, for code that runs transactions through {@code AccountService}. */
    public TransactionPath path() {
        return new TransactionPath() {
            @Override
            public ProcessingMode mode() {
                return ProcessingMode.LOCKED;
            }

            @Override
            public CompletionStage<TxOutcome> apply(String accountId, TxRequest request) {
                try {
                    return CompletableFuture.completedFuture(Held.this.apply(accountId, request));
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
            }
        };
    }

    @Override
    public void close() {
        release(taken);
    }

    /**
     * Unlocks in reverse order. A failed unlock is logged and skipped, never thrown: the answer is already decided,
     * and a lock whose session is gone is already free (the CP group released it when the session expired).
     */
    static void release(List<Taken> taken) {
        for (int i = taken.size() - 1; i >= 0; i--) {
            Taken lock = taken.get(i);
            try {
                lock.lock().unlock();
            } catch (RuntimeException e) {
                LOG.warn("Could not release the lock of account {} (fence {}): {}", lock.accountId(), lock.fence(),
                        e.toString());
            }
        }
    }
}
