package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.ProcessingMode;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.support.Blocking;
import io.partita.support.TestCluster;
import io.partita.support.Workers;
import io.partita.transaction.TransactionService;
import io.partita.web.Refusals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded workload of debits and credits, some retried, driven through {@link AccountService} on whichever members
 * of a {@link TestCluster} are alive, retrying each transaction until it has a definite answer (as a client would on
 * a 503). Afterwards it checks the invariants against what was acknowledged.
 */
final class LedgerLoad {

    record Tx(String txId, String accountId, TxType type, long amount) {
    }

    record Answer(TxStatus status, long balance) {
    }

    private final TestCluster cluster;
    private final Map<String, Account> opening = new ConcurrentHashMap<>();
    private final List<Tx> transactions = new ArrayList<>();
    private final Map<String, Answer> firstAnswers = new ConcurrentHashMap<>();
    private final List<String> retryMismatches = new CopyOnWriteArrayList<>();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger retriesAsked = new AtomicInteger();
    private final Map<HazelcastInstance, TransactionService> services = new ConcurrentHashMap<>();
    private final double retryShare;
    private final long seed;

    private LedgerLoad(TestCluster cluster, int accounts, int transactionCount, double retryShare, long seed) {
        this.cluster = cluster;
        this.retryShare = retryShare;
        this.seed = seed;
        Random random = new Random(seed);
        for (int i = 0; i < accounts; i++) {
            String id = "acc-" + i;
            opening.put(id, Account.open(random.nextInt(1_000), random.nextInt(4) == 0 ? random.nextInt(200) : 0));
        }
        for (int i = 0; i < transactionCount; i++) {
            transactions.add(new Tx("tx-" + seed + "-" + i, "acc-" + random.nextInt(accounts),
                    random.nextBoolean() ? TxType.DEBIT : TxType.CREDIT, 1 + random.nextInt(300)));
        }
    }

    /** A workload whose accounts are open on the cluster, ready to {@link #run}. */
    static LedgerLoad opened(TestCluster cluster, int accounts, int transactionCount, double retryShare, long seed) {
        LedgerLoad load = new LedgerLoad(cluster, accounts, transactionCount, retryShare, seed);
        load.openAccounts();
        return load;
    }

    private void openAccounts() {
        opening.forEach((id, account) -> assertTrue(
                new AccountService(cluster.member(0), cluster.properties(0))
                        .open(id, account.balance(), account.overdraftLimit())
                        .toCompletableFuture().join() != null));
    }

    int done() {
        return done.get();
    }

    int total() {
        return transactions.size();
    }

    /** Runs the workload on {@code threads} threads and returns when every transaction has a definite answer. */
    void run(int threads) throws Exception {
        Workers.run(threads, transactions.size(), seed, (i, random) -> {
            Tx tx = transactions.get(i);
            Answer first = applyUntilDefinite(tx, random);
            firstAnswers.put(tx.txId(), first);
            if (random.nextDouble() < retryShare) {
                retriesAsked.incrementAndGet();
                Answer retry = applyUntilDefinite(tx, random);
                if (!retry.equals(first)) {
                    retryMismatches.add(tx.txId() + ": first " + first + ", retry " + retry);
                }
            }
            done.incrementAndGet();
        });
    }

    /** Sends every transaction once more, on whichever members are alive; each must be answered as the first time. */
    void retryAll() {
        Random random = new Random(seed * 17);
        for (Tx tx : transactions) {
            retriesAsked.incrementAndGet();
            Answer retry = applyUntilDefinite(tx, random);
            Answer first = firstAnswers.get(tx.txId());
            if (!retry.equals(first)) {
                retryMismatches.add(tx.txId() + ": first " + first + ", retry " + retry);
            }
        }
    }

    private Answer applyUntilDefinite(Tx tx, Random random) {
        TxRequest request = TxRequest.of(tx.txId(), tx.type(), tx.amount(), System.currentTimeMillis());
        RuntimeException last = null;
        for (int attempt = 0; attempt < 600; attempt++) {
            List<HazelcastInstance> live = cluster.members();
            HazelcastInstance member = live.get(random.nextInt(live.size()));
            try {
                TxOutcome outcome = service(member).apply(tx.accountId(), request, null)
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
                if (outcome.kind() != TxOutcome.Kind.RECORDED && outcome.kind() != TxOutcome.Kind.REPLAYED) {
                    throw new AssertionError(tx + " answered " + outcome);
                }
                return new Answer(outcome.entry().status(), outcome.entry().balanceAfter());
            } catch (Exception e) {
                RuntimeException translated = GridFailures.translate(e);
                boolean retryable = translated instanceof Refusal api && Refusals.status(api) == 503
                        || !member.getLifecycleService().isRunning();
                if (!retryable) {
                    throw translated;
                }
                last = translated;
                backOff();
            }
        }
        throw new AssertionError("No definite answer for " + tx, last);
    }

    private static void backOff() {
        Blocking.run(() -> Thread.sleep(20));
    }

    private TransactionService service(HazelcastInstance member) {
        return services.computeIfAbsent(member, m -> TestAccess.transactions(m, cluster.properties(0)));
    }

    /**
     * Exact balances, no overdraft breached, every retry answered as the first time, one journal entry per id; and,
     * once the journal writers caught up (a crashed member's queue is swept up from the tails), every entry in the
     * journal map and none left in a tail.
     */
    void verify() {
        HazelcastInstance member = cluster.member(0);
        assertEquals(List.of(), retryMismatches, "retries answered differently from the first call");
        assertEquals(transactions.size(), firstAnswers.size());
        assertTrue(retriesAsked.get() > transactions.size() * retryShare / 2, "the workload retried too little");

        Map<String, List<Tx>> byAccount = transactions.stream().collect(Collectors.groupingBy(Tx::accountId));
        var accounts = AccountFeature.accounts(member);
        var journal = AccountFeature.journal(member);
        long totalOpening = 0;
        long totalApplied = 0;
        long totalNow = 0;
        for (Map.Entry<String, Account> opened : opening.entrySet()) {
            String id = opened.getKey();
            Account open = opened.getValue();
            List<Tx> txs = byAccount.getOrDefault(id, Collections.emptyList());
            long expected = open.balance();
            for (Tx tx : txs) {
                Answer answer = firstAnswers.get(tx.txId());
                assertTrue(answer.balance() >= -open.overdraftLimit(), tx + " answered " + answer);
                if (answer.status() == TxStatus.APPLIED) {
                    expected += tx.type().delta(tx.amount());
                }
            }
            Account now = accounts.get(id);
            assertEquals(expected, now.balance(), "balance of " + id);
            assertTrue(now.balance() >= -now.overdraftLimit(), id + " below its overdraft limit");
            assertEquals(txs.size(), now.version(), "transactions recorded on " + id);

            List<JournalEntry> entries = new AccountService(member, cluster.properties(0))
                    .journal(id, Integer.MAX_VALUE);
            assertEquals(txs.size(), entries.size(), "journal entries of " + id);
            for (JournalEntry entry : entries) {
                Answer answer = firstAnswers.get(entry.txId());
                assertEquals(answer, new Answer(entry.status(), entry.balanceAfter()), "journal of " + entry.txId());
            }
            totalOpening += open.balance();
            totalApplied += expected - open.balance();
            totalNow += now.balance();
        }
        assertEquals(totalOpening + totalApplied, totalNow, "money is conserved");
        // The tails keep their newest entries a while for a merge after a split (the hold); a sweep run now trims
        // whatever the journal holds, held or not, and queues what it lacks, so only the journal's write is waited for.
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            cluster.members().forEach(live -> MemberLedger.of(live).sweep(Long.MAX_VALUE));
            assertEquals(transactions.size(), journal.size(), "journal size");
            assertEquals(0, accounts.values().stream().mapToInt(account -> Tail.size(account.tail())).sum(),
                    "entries left in tails");
        });
    }

    static ProcessingMode defaultMode() {
        return ProcessingMode.PARTITIONED;
    }
}
