package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.context.ApplicationContext;
import io.micronaut.http.HttpStatus;
import io.partita.account.Account;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.Ledger;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.web.ApiException;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The ways {@link LockVsPartitionBenchmark} posts one debit or credit, each a factory of a {@link Poster} bound to one
 * node. The first three are the app's own paths, called where its HTTP controller calls them
 * ({@code AccountService.apply}, which also writes the journal entry before answering); the last two are references
 * written here, on the app's maps and with the app's {@code Ledger}.
 */
public enum Posting {

    /** A FencedLock per account (Raft on 3 CP members, unsafe mode on 1): lock, read, decide, fenced write, unlock. */
    LOCKED {
        @Override
        Poster create(ApplicationContext node, Books books) {
            return new Answered(node.getBean(AccountService.class), ProcessingMode.LOCKED, books);
        }
    },
    /** The entry processor at the account's partition owner; the caller waits for each answer. */
    PARTITIONED {
        @Override
        Poster create(ApplicationContext node, Books books) {
            return new Answered(node.getBean(AccountService.class), ProcessingMode.PARTITIONED, books);
        }
    },
    /** The same entry processor, up to {@link Windowed#WINDOW} calls in flight per client thread. */
    PARTITIONED_ASYNC {
        @Override
        Poster create(ApplicationContext node, Books books) {
            return new Windowed(node.getBean(AccountService.class), books);
        }
    },
    /** Reference: the same decision under Hazelcast's per-key {@code IMap.lock} (no Raft, no fence). */
    IMAP_LOCK {
        @Override
        Poster create(ApplicationContext node, Books books) {
            return new MapLocked(node.getBean(HazelcastInstance.class), books);
        }
    },
    /** Reference, the floor: one {@code IMap.set} of an account with its synchronous backup; records nothing. */
    RAW_SET {
        @Override
        Poster create(ApplicationContext node, Books books) {
            return new RawSet(node.getBean(HazelcastInstance.class), books);
        }
    };

    abstract Poster create(ApplicationContext node, Books books);

    /**
     * One client's way of posting. Each benchmark thread has its own, so a poster needs no synchronisation of its own;
     * what it learns goes to the shared {@link Books}.
     */
    interface Poster {

        /** Posts one transaction; returns once the next may be posted. The result is for JMH's blackhole. */
        Object post(String accountId, TxRequest request);

        /** Waits until everything posted is answered. */
        default void drain() {
        }
    }

    /**
     * Waits for each answer, as a request thread of a blocking client would. A 503 (a lock not free within
     * {@code partita.cp.lock-timeout}, a transient grid failure) is retried at once with the same transaction id, as
     * a client would after Retry-After; the retry may be answered as a replay of the first attempt, and counts once.
     */
    static final class Answered implements Poster {

        private static final int MAX_ATTEMPTS = 10;

        private final AccountService service;
        private final ProcessingMode mode;
        private final Books books;

        Answered(AccountService service, ProcessingMode mode, Books books) {
            this.service = service;
            this.mode = mode;
            this.books = books;
        }

        @Override
        public Object post(String accountId, TxRequest request) {
            for (int attempt = 1; ; attempt++) {
                try {
                    TxOutcome outcome = service.apply(accountId, request, mode).toCompletableFuture().join();
                    books.record(request, outcome, attempt > 1);
                    return outcome;
                } catch (CompletionException e) {
                    if (attempt == MAX_ATTEMPTS || !unavailable(e.getCause())) {
                        throw books.fail(e.getCause());
                    }
                    books.retried();
                }
            }
        }

        private static boolean unavailable(Throwable failure) {
            return failure instanceof ApiException api && api.status() == HttpStatus.SERVICE_UNAVAILABLE;
        }
    }

    /**
     * Keeps up to {@link #WINDOW} calls in flight: a post waits only when the window is full, and then for the
     * oldest call. JMH counts posts, so an iteration counts up to {@code WINDOW} calls per thread that are answered
     * after it ends (drained before the next one starts): at most 16 x 16 = 256 calls per iteration.
     */
    static final class Windowed implements Poster {

        static final int WINDOW = 16;

        private final AccountService service;
        private final Books books;
        private final ArrayDeque<CompletableFuture<TxOutcome>> window = new ArrayDeque<>(WINDOW);

        Windowed(AccountService service, Books books) {
            this.service = service;
            this.books = books;
        }

        @Override
        public Object post(String accountId, TxRequest request) {
            while (!window.isEmpty() && (window.size() >= WINDOW || window.peekFirst().isDone())) {
                window.pollFirst().join();
            }
            books.started();
            CompletableFuture<TxOutcome> call = service.apply(accountId, request, ProcessingMode.PARTITIONED)
                    .toCompletableFuture()
                    .whenComplete((outcome, failure) -> {
                        try {
                            if (failure != null) {
                                throw books.fail(failure);
                            }
                            books.record(request, outcome, false);
                        } finally {
                            books.finished();
                        }
                    });
            window.addLast(call);
            return call;
        }

        @Override
        public void drain() {
            while (!window.isEmpty()) {
                window.pollFirst().join();
            }
        }
    }

    /**
     * Hazelcast's own lock per key around the app's decision: lock, read the account (and, in parallel, the journal
     * entry of the id, as the locked path does), decide with {@link Ledger#decide}, set, unlock, then write the journal
     * entry before answering, as {@code AccountService} does. The lock is a partition operation at the key's owner
     * with a backup; the lock and unlock are two more round trips than the partitioned path's one.
     */
    static final class MapLocked implements Poster {

        private final IMap<String, Account> accounts;
        private final IMap<JournalKey, JournalEntry> journal;
        private final Books books;

        MapLocked(HazelcastInstance member, Books books) {
            this.accounts = Maps.accounts(member);
            this.journal = Maps.journal(member);
            this.books = books;
        }

        @Override
        public Object post(String accountId, TxRequest request) {
            TxOutcome outcome;
            accounts.lock(accountId);
            try {
                CompletableFuture<JournalEntry> older =
                        journal.getAsync(new JournalKey(accountId, request.txId())).toCompletableFuture();
                Ledger.Decision decision = Ledger.decide(accounts.get(accountId), request, key -> older.join(),
                        journal::containsKey);
                if (decision.account() != null) {
                    accounts.set(accountId, decision.account());
                }
                outcome = decision.outcome();
            } finally {
                accounts.unlock(accountId);
            }
            journal.set(outcome.entry().key(), outcome.entry());
            books.record(request, outcome, false);
            return outcome;
        }
    }

    /**
     * One {@code IMap.set} of the account as it was opened: the owner stores it and waits for its backup. No read, no
     * decision, no journal; the balance never changes, so the books expect the opening sum and no versions.
     */
    static final class RawSet implements Poster {

        private final IMap<String, Account> accounts;
        private final Books books;

        RawSet(HazelcastInstance member, Books books) {
            this.accounts = Maps.accounts(member);
            this.books = books;
        }

        @Override
        public Object post(String accountId, TxRequest request) {
            Account opened = Account.open(accountId, books.openingBalance(), 0);
            accounts.set(accountId, opened);
            books.wrote();
            return opened;
        }
    }
}
