package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.context.ApplicationContext;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Ledger;
import io.partita.account.Tail;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.transaction.TransactionService;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * The ways {@link LockVsPartitionBenchmark} posts one debit or credit, each a factory of a {@link Poster} bound to one
 * node. The first three are the app's own paths, called where its HTTP controller calls them
 * ({@code TransactionService.apply}); the last three are references written here, on the app's maps and with the app's
 * {@code Ledger}.
 */
public enum Posting {

    /** A FencedLock per account (Raft on 3 CP members, unsafe mode on 1): lock, read, decide, fenced write, unlock. */
    LOCKED((node, books) -> new Answered(node.getBean(TransactionService.class), ProcessingMode.LOCKED, books)),
    /** The entry processor at the account's partition owner; the caller waits for each answer. */
    PARTITIONED((node, books) ->
            new Answered(node.getBean(TransactionService.class), ProcessingMode.PARTITIONED, books)),
    /** The same entry processor, up to {@link Windowed#WINDOW} calls in flight per client thread. */
    PARTITIONED_ASYNC((node, books) -> new Windowed(node.getBean(TransactionService.class), books)),
    /** Reference: the same decision under Hazelcast's per-key {@code IMap.lock} (no Raft, no fence). */
    IMAP_LOCK((node, books) -> new MapLocked(node.getBean(HazelcastInstance.class), books)),
    /** Reference, the floor of a write: one {@code IMap.set} of an account as large as a real one, with its backup. */
    RAW_SET((node, books) -> new RawSet(AccountFeature.accounts(node.getBean(HazelcastInstance.class)), books)),
    /** Reference, the floor of an entry processor: one that reads the account and writes nothing (no backup). */
    EP_NOOP((node, books) -> new Noop(AccountFeature.accounts(node.getBean(HazelcastInstance.class)), books));

    private final BiFunction<ApplicationContext, Books, Poster> factory;

    Posting(BiFunction<ApplicationContext, Books, Poster> factory) {
        this.factory = factory;
    }

    Poster create(ApplicationContext node, Books books) {
        return factory.apply(node, books);
    }

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

        /** Calls answered since the last {@link #resetCompletions(boolean)}, while counting was on. */
        default long completions() {
            return 0;
        }

        /** Starts counting completions from zero ({@code counting}) or stops counting them. */
        default void resetCompletions(boolean counting) {
        }
    }

    /**
     * Waits for each answer, as a request thread of a blocking client would. A 503 (a lock not free within
     * {@code partita.cp.lock-timeout}, a transient grid failure) is retried at once with the same transaction id, as
     * a client would after Retry-After; the retry may be answered as a replay of the first attempt, and counts once.
     */
    record Answered(TransactionService service, ProcessingMode mode, Books books) implements Poster {

        private static final int MAX_ATTEMPTS = 10;

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
            return failure instanceof Refusal refusal && refusal.isTransient();
        }
    }

    /**
     * Keeps up to {@link #WINDOW} calls in flight: a post waits only when the window is full, and then for the
     * oldest call. JMH counts posts; the benchmark reports completions too (a secondary result, {@code completions}),
     * counted as the calls are answered, which is what a throughput of answered transactions means.
     */
    static final class Windowed implements Poster {

        static final int WINDOW = 16;

        private final TransactionService service;
        private final Books books;
        private final ArrayDeque<CompletableFuture<TxOutcome>> window = new ArrayDeque<>(WINDOW);
        private final AtomicLong completions = new AtomicLong();
        private volatile boolean counting;

        Windowed(TransactionService service, Books books) {
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
                            if (counting) {
                                completions.incrementAndGet();
                            }
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

        @Override
        public long completions() {
            return completions.get();
        }

        @Override
        public void resetCompletions(boolean counting) {
            this.counting = counting;
            if (counting) {
                completions.set(0);
            }
        }
    }

    /**
     * Hazelcast's own lock per key around the app's decision: lock, read the account (and, in parallel, the journal
     * entry of the id, as the locked path does), decide with {@link Ledger#decide}, set the account, unlock, then
     * write the journal entry before answering. The account is stored with the entry already journaled (an empty
     * tail), since this path writes the journal itself. The lock is a partition operation at the key's owner with a
     * backup; the lock and unlock are two more round trips than the partitioned path's one, the journal a third.
     */
    static final class MapLocked implements Poster {

        private final IMap<String, Account> accounts;
        private final IMap<JournalKey, JournalRecord> journal;
        private final Books books;

        MapLocked(HazelcastInstance member, Books books) {
            this.accounts = AccountFeature.accounts(member);
            this.journal = AccountFeature.journal(member);
            this.books = books;
        }

        @Override
        public Object post(String accountId, TxRequest request) {
            TxOutcome outcome;
            JournalEntry recorded;
            accounts.lock(accountId);
            try {
                JournalKey key = new JournalKey(accountId, request.txId());
                CompletableFuture<JournalRecord> older = journal.getAsync(key).toCompletableFuture();
                Account account = accounts.get(accountId);
                Ledger.Decision decision = Ledger.decide(accountId, account, request, txId -> {
                    JournalRecord record = older.join();
                    return record == null ? null : record.entry(key);
                });
                recorded = decision.recorded();
                if (recorded != null) {
                    accounts.set(accountId, decision.apply(account).trimmedThrough(recorded.seq()));
                }
                outcome = decision.outcome();
            } finally {
                accounts.unlock(accountId);
            }
            if (recorded != null) {
                journal.set(recorded.key(), JournalRecord.of(recorded));
            }
            books.record(request, outcome, false);
            return outcome;
        }
    }

    /**
     * One {@code IMap.set} of an account as large as one the partitioned path holds: its figures and a tail of
     * {@link #TAIL} entries like the ones it records. The owner stores it and waits for its backup. No read, no
     * decision, no journal; the balance never changes, so the books expect the opening sum and no versions.
     */
    record RawSet(IMap<String, Account> accounts, Books books) implements Poster {

        /** Entries in a written account's tail: about what the partitioned path's accounts hold between flushes. */
        static final int TAIL = 2;
        private static final long NEVER_STALE = Long.MAX_VALUE / 2;

        @Override
        public Object post(String accountId, TxRequest request) {
            long balance = books.openingBalance();
            List<JournalEntry> tail = new ArrayList<>(TAIL);
            for (int i = 0; i < TAIL; i++) {
                // Stamped far ahead, so that the journal writer's sweep never takes these made-up entries for real
                // ones to journal (a varint of 9 bytes where a real time takes 6).
                tail.add(new JournalEntry(accountId, request.txId() + "-" + i, request.type(), request.amount(),
                        TxStatus.APPLIED, balance, NEVER_STALE, i + 1, null));
            }
            Account written = new Account(balance, 0, 0, 0, balance, Tail.encode(tail), List.of(), 0);
            accounts.set(accountId, written);
            books.wrote();
            return written;
        }
    }

    /** {@link ReadAccount} at the account's owner: an entry processor's cost without the work. Records nothing. */
    record Noop(IMap<String, Account> accounts, Books books) implements Poster {

        @Override
        public Object post(String accountId, TxRequest request) {
            Long balance = accounts.executeOnKey(accountId, new ReadAccount());
            books.wrote();
            return balance;
        }
    }
}
