package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.scheduling.TaskExecutors;
import io.partita.account.Account;
import io.partita.account.TransactionPath;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;

/**
 * Lock per message: take the account's FencedLock, read, check, write with the fence, unlock.
 *
 * <p>What runs where: FencedLock calls block and a lock belongs to the thread that took it, so the whole sequence
 * runs on one thread of the node's blocking executor, never on an HTTP event loop; the returned stage completes when
 * the lock is released. Same answers as the partitioned path: both decide with {@code Ledger.decide}, and
 * {@code AccountService} writes the journal entry after this path answers, whichever path it was.
 *
 * <p>An unknown account is answered before any lock is taken: every lock name stays in the CP group's state for good,
 * so a request for a made-up id must not create one (accounts are never deleted, so the answer cannot go stale).
 */
@Singleton
class LockedPath implements TransactionPath {

    private final IMap<String, Account> accounts;
    private final AccountLocks locks;
    private final ExecutorService executor;

    LockedPath(HazelcastInstance hazelcast, AccountLocks locks,
               @Named(TaskExecutors.BLOCKING) ExecutorService executor) {
        this.accounts = Maps.accounts(hazelcast);
        this.locks = locks;
        this.executor = executor;
    }

    @Override
    public ProcessingMode mode() {
        return ProcessingMode.LOCKED;
    }

    @Override
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request) {
        return CompletableFuture.supplyAsync(() -> {
            if (!accounts.containsKey(accountId)) {
                return TxOutcome.notFound();
            }
            try (Held held = locks.lock(accountId)) {
                return held.apply(accountId, request);
            }
        }, executor);
    }
}
