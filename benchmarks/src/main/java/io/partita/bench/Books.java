package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.MemberLedger;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A trial's own account of what it posted, and the check that the grid holds exactly that: the benchmark reports a
 * number only for a run that lost and doubled nothing.
 *
 * <p>Concurrency: the counters are updated by every client thread and by the Hazelcast and continuation threads
 * that complete asynchronous calls; {@link #verify} runs once, from the trial's teardown, after it has waited for the
 * calls still in flight. The grid is read through one member, after posting has stopped.
 *
 * <p>What is checked, against the {@code accounts} and {@code journal} maps:
 * <ul>
 *   <li>the sum of all balances is the opening sum plus the signed amounts the benchmark saw applied;</li>
 *   <li>the sum of all account versions (each recorded transaction adds one) is the number of transactions the
 *       benchmark saw recorded: a transaction applied twice would add one too many, a lost one one too few;</li>
 *   <li>once the journal writers caught up (no entry left in any account's tail), the journal holds one entry per
 *       recorded transaction (every id is unique, so a duplicate cannot hide);</li>
 *   <li>no answer was a replay or a conflict, except the replay that answers a retry of a 503.</li>
 * </ul>
 */
final class Books {

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(1);

    private final int accounts;
    private final long openingBalance;
    private final long openingSum;
    private final LongAdder delta = new LongAdder();
    private final LongAdder recorded = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Books(int accounts, long openingBalance, long openingSum) {
        this.accounts = accounts;
        this.openingBalance = openingBalance;
        this.openingSum = openingSum;
    }

    /** Opens {@code count} accounts ({@link #accountId}) with {@code balance} each and takes the opening sum. */
    static Books open(HazelcastInstance member, int count, long balance) {
        var map = AccountFeature.accounts(member);
        Map<String, Account> chunk = new HashMap<>();
        for (int i = 0; i < count; i++) {
            chunk.put(accountId(i), Account.open(balance, 0));
            if (chunk.size() == 10_000 || i == count - 1) {
                map.putAll(chunk);
                chunk.clear();
            }
        }
        return new Books(count, balance, sum(map.values()));
    }

    long openingBalance() {
        return openingBalance;
    }

    static String accountId(int index) {
        return "acc-" + index;
    }

    /** One transaction's final answer; {@code retried} when it came after a 503 and a retry with the same id. */
    void record(TxRequest request, TxOutcome outcome, boolean retried) {
        boolean firstAnswer = outcome.kind() == TxOutcome.Kind.RECORDED
                || retried && outcome.kind() == TxOutcome.Kind.REPLAYED;
        if (!firstAnswer) {
            throw fail(new IllegalStateException("Transaction " + request.txId() + " has a unique id, yet was answered "
                    + outcome));
        }
        if (outcome.entry().status() == TxStatus.APPLIED) {
            delta.add(request.type().delta(request.amount()));
        } else {
            rejected.increment();
        }
        recorded.increment();
    }

    /** Transactions recorded on accounts by something other than a single posting (a transfer's steps). */
    void recordSteps(long steps, long signedAmount) {
        recorded.add(steps);
        delta.add(signedAmount);
    }

    /** A write that records no transaction (the {@code RAW_SET} floor). */
    void wrote() {
        writes.increment();
    }

    void retried() {
        retries.increment();
    }

    void started() {
        inFlight.incrementAndGet();
    }

    void finished() {
        inFlight.decrementAndGet();
    }

    /** Remembers the first failure of an asynchronous call, for {@link #verify} to throw. */
    IllegalStateException fail(Throwable cause) {
        failure.compareAndSet(null, cause);
        return cause instanceof IllegalStateException state ? state : new IllegalStateException(cause);
    }

    long recorded() {
        return recorded.sum();
    }

    long rejected() {
        return rejected.sum();
    }

    long retries() {
        return retries.sum();
    }

    /**
     * Waits for calls still in flight, then compares the grid with these books.
     *
     * @return a one-line summary of what was checked
     * @throws IllegalStateException on any difference, or if any call failed
     */
    String verify(HazelcastInstance member) {
        awaitDrained();
        if (failure.get() != null) {
            throw new IllegalStateException("A call failed during the trial", failure.get());
        }
        if (recorded.sum() > 0) {
            awaitJournaled(member);
        }
        Collection<Account> values = AccountFeature.accounts(member).values();
        long sum = sum(values);
        long versions = values.stream().mapToLong(Account::version).sum();
        long journal = AccountFeature.journal(member).size();
        long expectedSum = openingSum + delta.sum();
        String figures = String.format("accounts %,d of %,d; balances %,d, expected %,d (opening %,d + applied %,d); "
                        + "versions %,d and journal %,d, expected %,d recorded (%,d rejected); %,d plain writes; "
                        + "%,d retries after 503",
                values.size(), accounts, sum, expectedSum, openingSum, delta.sum(), versions, journal,
                recorded.sum(), rejected.sum(), writes.sum(), retries.sum());
        if (values.size() != accounts || sum != expectedSum || versions != recorded.sum()
                || recorded.sum() > 0 && journal != recorded.sum()) {
            throw new IllegalStateException("The grid does not hold what the benchmark posted: " + figures);
        }
        return "checked: " + figures;
    }

    /**
     * Waits until no account's tail holds an entry: the journal writers have copied everything recorded. Sweeps every
     * tail whenever this member's writer has nothing queued (as the oldest member does every few seconds for tails
     * older than its grace): a sweep trims what the journal holds and queues what it lacks. Returns once what a sweep
     * queued is written too, so that nothing reaches the journal after the caller has looked.
     */
    static void awaitJournaled(HazelcastInstance member) {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        MemberLedger ledger = MemberLedger.of(member);
        while (ledger.journalPending() > 0
                || AccountFeature.accounts(member).values().stream().anyMatch(account -> account.tail().length > 0)) {
            if (ledger.journalPending() == 0) {
                ledger.sweep(Long.MAX_VALUE);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Entries still in tails, not journaled, after " + DRAIN_TIMEOUT);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while the journal caught up", e);
            }
        }
    }

    private void awaitDrained() {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while (inFlight.get() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(inFlight.get() + " calls still unanswered after " + DRAIN_TIMEOUT);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while calls were in flight", e);
            }
        }
    }

    private static long sum(Collection<Account> values) {
        return values.stream().mapToLong(Account::balance).sum();
    }
}
