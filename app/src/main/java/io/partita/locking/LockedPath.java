package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.scheduling.TaskExecutors;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.PartitaProperties;
import io.partita.node.PartitionSentinels;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.transaction.TransactionPath;
import io.partita.web.InFlightLimit;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * Lock per message: take the account's FencedLock, read, check, write with the fence, unlock. Same answers as the
 * partitioned path: both decide with {@code Ledger.decide}. A request whose client already had its 503 never takes the
 * lock and writes later, and past {@code partita.max-in-flight} tasks under way it refuses at once.
 *
 * <b>Threads:</b> FencedLock calls block and a lock belongs to the thread that took it, so the whole sequence runs as
 * one task on the node's blocking executor, never on an HTTP event loop; the returned stage completes when the lock is
 * released. Callers on any thread share only the count of tasks under way, a semaphore.
 */
@Singleton
class LockedPath implements TransactionPath {

    /*
     * Answers
     *
     * Same answers as the partitioned path: both decide with Ledger.decide, and AccountService writes the journal entry
     * after this path answers, whichever path it was.
     *
     * Time
     *
     * The request's deadline (partita.request-timeout) is taken when it arrives here and bounds the task wherever it
     * is: a task that waited in the executor's queue past it does nothing, the lock wait ends at it, and no write is
     * sent after it. So a request whose client already had its 503 never takes the lock and writes later.
     *
     * Bounded queue
     *
     * The caller's in-flight permit is given back when the caller's own timeout answers the client, which can be before
     * this task has even started (the blocking executor's queue is unbounded). So this path counts its tasks itself,
     * from submission to the task's real end, and refuses (503 at once, nothing changed) past partita.max-in-flight of
     * them: clients that retry after their 503s cannot pile up tasks without bound.
     *
     * Unknown accounts
     *
     * An unknown account is answered before any lock is taken: every lock name stays in the CP group's state for good,
     * so a request for a made-up id must not create one (accounts are never deleted, so the answer cannot go stale).
     */

    private final HazelcastInstance hazelcast;
    private final IMap<String, Account> accounts;
    private final AccountLocks locks;
    private final Executor executor;
    private final Duration requestTimeout;
    private final int maxTasks;
    private final Semaphore tasks;

    @Inject
    LockedPath(HazelcastInstance hazelcast, AccountLocks locks,
               @Named(TaskExecutors.BLOCKING) ExecutorService executor, PartitaProperties properties,
               InFlightLimit inFlight) {
        this(hazelcast, locks, (Executor) executor, properties.requestTimeout(), inFlight.max());
    }

    LockedPath(HazelcastInstance hazelcast, AccountLocks locks, Executor executor, Duration requestTimeout,
               int maxTasks) {
        this.hazelcast = hazelcast;
        this.accounts = AccountFeature.accounts(hazelcast);
        this.locks = locks;
        this.executor = executor;
        this.requestTimeout = requestTimeout;
        this.maxTasks = maxTasks;
        this.tasks = new Semaphore(maxTasks);
    }

    @Override
    public ProcessingMode mode() {
        return ProcessingMode.LOCKED;
    }

    @Override
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request) {
        Deadline deadline = Deadline.after(requestTimeout);
        if (!tasks.tryAcquire()) {
            return CompletableFuture.failedFuture(Refusal.unavailable("This node has its maximum of " + maxTasks
                    + " locked-mode transactions under way. Retry shortly with the same id.", Deadline.RETRY_AFTER));
        }
        // A future of its own rather than supplyAsync's: a caller that completes the returned stage early must not
        // keep the task from running its finally block (supplyAsync skips the task when its future is done).
        CompletableFuture<TxOutcome> answer = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                TxOutcome outcome = null;
                RuntimeException failure = null;
                try {
                    outcome = run(accountId, request, deadline);
                } catch (RuntimeException e) {
                    failure = e;
                } finally {
                    // Before the answer: whoever hears it may count on the task being over.
                    tasks.release();
                }
                if (failure == null) {
                    answer.complete(outcome);
                } else {
                    answer.completeExceptionally(failure);
                }
            });
        } catch (RejectedExecutionException e) {
            // The node is shutting down.
            tasks.release();
            return CompletableFuture.failedFuture(Refusal.unavailable("This node is stopping; nothing was "
                    + "changed. Retry with the same id on another node.", Deadline.RETRY_AFTER));
        }
        return answer;
    }

    private TxOutcome run(String accountId, TxRequest request, Deadline deadline) {
        deadline.check();
        if (deadline.await(accounts.getAsync(accountId)) == null) {
            // Partition-lost rather than not found while the account's partition has no data: it may exist.
            int partition = hazelcast.getPartitionService().getPartition(accountId).getPartitionId();
            return deadline.await(PartitionSentinels.of(hazelcast).lostAtOwnerAsync(partition))
                    ? TxOutcome.partitionLost() : TxOutcome.notFound();
        }
        try (Held held = locks.lock(deadline, accountId)) {
            return held.apply(accountId, request);
        }
    }

    /** Tasks submitted and not yet ended. */
    int tasksUnderWay() {
        return maxTasks - tasks.availablePermits();
    }
}
