package io.partita.locking;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.cp.lock.FencedLock;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.ProcessingMode;
import io.partita.transaction.TransactionPath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Account locks held by the current thread, with their fences, and the deadline of the request that took them.
 * Closing releases them in reverse order, on the thread that took them. Use it in a try-with-resources block and
 * nowhere else.
 * Everything here runs on the thread that took the locks (FencedLock's owner is that thread and this
 * member's CP session); writes go to the accounts' owners as {@link FencedWrite}s and are waited for until the
 * deadline at most.
 */
public final class Held implements AutoCloseable {

    /**
     * What this member logs when it finds, on unlocking, that its CP session expired while it held a lock (it was
     * paused or cut off, and the lock went to another holder with a higher fence). Fault tests look for it.
     */
    public static final String SESSION_EXPIRED_WHILE_HELD = "its CP session expired while it was held";

    /**
     * Unlock attempts before giving up on a lock. Each is bounded by Hazelcast's own invocation timeout, which is long
     * (minutes) only when the CP group has no leader; a lock left held then is the lesser harm than a thread kept.
     */
    static final int UNLOCK_ATTEMPTS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(Held.class);

    record Taken(String accountId, FencedLock lock, long fence) {
    }

    private final List<Taken> taken;
    private final FencedWrites writes;
    private final Deadline deadline;

    Held(List<Taken> taken, FencedWrites writes, Deadline deadline) {
        this.taken = List.copyOf(taken);
        this.writes = writes;
        this.deadline = deadline;
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
     * Read, check and write one transaction on an account whose lock this holder has, on the calling thread, within
     * the deadline of the request that took the locks.
     *
     * @throws io.partita.refusal.Refusal 503 when the lock turned out lost (nothing was written) or the deadline
     *                                     passed (nothing more is written)
     */
    public TxOutcome apply(String accountId, TxRequest request) {
        return writes.apply(fence(accountId), accountId, request, deadline);
    }

    /**
     * This holder as a processing path, for code that runs transactions through {@code AccountService}. The work runs
     * on the calling thread, which holds the locks, and is bounded by the holder's deadline, so the returned stage is
     * already complete: a timeout a caller adds to it cannot bound anything, and it does not need to.
     */
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
     * Unlocks in reverse order, never throwing: the answer is already decided. An unlock that fails for a transient
     * reason (no Raft leader for a moment, a CP member leaving) is tried again, up to {@link #UNLOCK_ATTEMPTS} times.
     * One that fails because this thread no longer owns the lock is not: the lock's session expired and the CP group
     * already freed it; nor one on a member that is stopping, whose session ends with it. A lock still held after the
     * last attempt stays held by this member's session, so other requests on the account wait for it and answer 503
     * until an operator restarts the member (its session ends with it); that is logged as an error, with the
     * account, because nothing else will release it.
     */
    static void release(List<Taken> taken) {
        for (int i = taken.size() - 1; i >= 0; i--) {
            unlock(taken.get(i));
        }
    }

    private static void unlock(Taken lock) {
        for (int attempt = 1; ; attempt++) {
            try {
                lock.lock().unlock();
                return;
            } catch (HazelcastInstanceNotActiveException e) {
                // This member is stopping: its CP session ends with it, and the lock is freed when it does.
                LOG.debug("Lock of account {} left to this stopping member's session", lock.accountId());
                return;
            } catch (IllegalMonitorStateException e) {
                // LockOwnershipLostException among them: the session is gone, and the lock with it.
                LOG.warn("The lock of account {} (fence {}) was already released: {}", lock.accountId(),
                        lock.fence(), SESSION_EXPIRED_WHILE_HELD);
                return;
            } catch (RuntimeException e) {
                if (attempt >= UNLOCK_ATTEMPTS) {
                    LOG.error("Could not release the lock of account {} (fence {}) after {} attempts: {}. It stays "
                                    + "held by this member's CP session; locked-mode requests on the account will "
                                    + "answer 503 until this member restarts.", lock.accountId(), lock.fence(),
                            attempt, e.toString());
                    return;
                }
                LOG.debug("Releasing the lock of account {} failed (attempt {}), retrying: {}", lock.accountId(),
                        attempt, e.toString());
            }
        }
    }
}
