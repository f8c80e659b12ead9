package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.support.Blocking;
import io.partita.support.TestNodes;
import io.partita.support.Workers;
import io.partita.transaction.TransactionService;
import io.partita.web.Refusals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded mix of transfers and single-account transactions over a few hot accounts, each operation in a random mode
 * (partitioned or locked), some retried, driven through the services of whichever {@link TestNodes} are alive. An
 * operation that gets a 503 is retried with the same id until it has a definite answer, as a client would; with
 * {@code abandonWhenTheNodeDies}, a transfer whose node died under it is abandoned instead (its client died with it),
 * so that only recovery can finish it. Afterwards {@link #verify()} checks the invariants against the journal.
 */
final class TransferLoad {

    enum Kind { TRANSFER, TRANSACTION }

    record Op(String id, Kind kind, String from, String to, TxType type, long amount, ProcessingMode mode,
              boolean retried) {
    }

    private final TestNodes nodes;
    private final String prefix;
    private final Map<String, Account> opening = new HashMap<>();
    private final List<String> accountIds = new ArrayList<>();
    private final List<Op> ops = new ArrayList<>();
    private final Map<String, String> firstAnswers = new ConcurrentHashMap<>();
    private final Set<String> abandoned = ConcurrentHashMap.newKeySet();
    private final List<String> retryMismatches = new CopyOnWriteArrayList<>();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final boolean abandonWhenTheNodeDies;
    private final long seed;

    TransferLoad(TestNodes nodes, String prefix, int accounts, int opCount, long seed, boolean abandonWhenTheNodeDies) {
        this.nodes = nodes;
        this.prefix = prefix;
        this.seed = seed;
        this.abandonWhenTheNodeDies = abandonWhenTheNodeDies;
        Random random = new Random(seed);
        for (int i = 0; i < accounts; i++) {
            String id = prefix + "-acc-" + i;
            accountIds.add(id);
            opening.put(id, Account.open(2_000 + random.nextInt(2_000), random.nextBoolean() ? 300 : 0));
        }
        for (int i = 0; i < opCount; i++) {
            ProcessingMode mode = random.nextBoolean() ? ProcessingMode.LOCKED : ProcessingMode.PARTITIONED;
            boolean retried = random.nextInt(5) == 0;
            long amount = 1 + random.nextInt(400);
            String from = accountIds.get(random.nextInt(accounts));
            if (random.nextInt(10) < 6) {
                String to = accountIds.get((accountIds.indexOf(from) + 1 + random.nextInt(accounts - 1)) % accounts);
                ops.add(new Op(prefix + "-x-" + i, Kind.TRANSFER, from, to, null, amount, mode, retried));
            } else {
                TxType type = random.nextBoolean() ? TxType.DEBIT : TxType.CREDIT;
                ops.add(new Op(prefix + "-t-" + i, Kind.TRANSACTION, from, null, type, amount, mode, retried));
            }
        }
    }

    void openAccounts() {
        AccountService accounts = bean(nodes.servers().get(0), AccountService.class);
        opening.forEach((id, account) -> accounts.open(id, account.balance(), account.overdraftLimit())
                .toCompletableFuture().join());
    }

    int done() {
        return done.get();
    }

    int total() {
        return ops.size();
    }

    /** What the run did, for the test's log. */
    String summary() {
        Map<String, Long> byKind = ops.stream().collect(Collectors.groupingBy(op -> op.kind() + "/" + op.mode(),
                TreeMap::new, Collectors.counting()));
        return prefix + ": " + byKind + ", retried " + replays.get() + ", abandoned with their node "
                + abandoned.size();
    }

    /** Runs every operation on {@code threads} threads; returns when each has an answer or was abandoned. */
    void run(int threads) throws Exception {
        Workers.run(threads, ops.size(), seed, (i, random) -> {
            drive(ops.get(i), random);
            done.incrementAndGet();
        });
    }

    private void drive(Op op, Random random) {
        String answer = untilDefinite(op, random, false);
        if (answer == null) {
            abandoned.add(op.id());
            return;
        }
        // A first attempt that landed but whose answer was lost (a 503, a dead node) makes the next one a replay.
        String first = answer.replaceFirst("^replayed ", "");
        firstAnswers.put(op.id(), first);
        if (op.retried()) {
            String retry = untilDefinite(op, random, true);
            if (!("replayed " + first).equals(retry)) {
                retryMismatches.add(op.id() + ": first " + first + ", retry " + retry);
            }
            replays.incrementAndGet();
        }
    }

    /** The operation's answer as a comparable string, prefixed with "replayed " when it was one; null if abandoned. */
    private String untilDefinite(Op op, Random random, boolean retry) {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 1_000; attempt++) {
            List<EmbeddedServer> live = nodes.servers();
            EmbeddedServer node = live.get(random.nextInt(live.size()));
            try {
                return answer(op, node);
            } catch (RuntimeException e) {
                RuntimeException translated = GridFailures.translate(e);
                boolean nodeDied = !nodes.servers().contains(node);
                boolean retryable = nodeDied
                        || translated instanceof Refusal api && Refusals.status(api) == 503;
                if (!retryable) {
                    throw new AssertionError(op + " failed", translated);
                }
                if (nodeDied && abandonWhenTheNodeDies && op.kind() == Kind.TRANSFER && !retry) {
                    return null;
                }
                last = translated;
                pause();
            }
        }
        throw new AssertionError("No definite answer for " + op, last);
    }

    private static String answer(Op op, EmbeddedServer node) {
        if (op.kind() == Kind.TRANSFER) {
            TransferService.Result result = bean(node, TransferService.class).transfer(
                    new TransferRequest(op.id(), op.from(), op.to(), op.amount()), op.mode());
            Transfer transfer = result.transfer();
            return (result.replayed() ? "replayed " : "") + transfer.state() + " " + transfer.fromBalance() + " "
                    + transfer.toBalance();
        }
        TxOutcome outcome = bean(node, TransactionService.class).apply(op.from(),
                        TxRequest.of(op.id(), op.type(), op.amount(), System.currentTimeMillis()), op.mode())
                .toCompletableFuture().join();
        if (outcome.kind() != TxOutcome.Kind.RECORDED && outcome.kind() != TxOutcome.Kind.REPLAYED) {
            throw new AssertionError(op + " answered " + outcome);
        }
        return (outcome.kind() == TxOutcome.Kind.REPLAYED ? "replayed " : "") + outcome.entry().status() + " "
                + outcome.entry().balanceAfter();
    }

    private static <T> T bean(EmbeddedServer node, Class<T> type) {
        ApplicationContext context = node.getApplicationContext();
        return context.getBean(type);
    }

    private static void pause() {
        Blocking.run(() -> Thread.sleep(20));
    }

    /** Waits until every transfer of the run has a final state (recovery finishes the abandoned ones). */
    void awaitTransfersFinished(Duration atMost) {
        HazelcastInstance member = nodes.member(0);
        await().atMost(atMost).until(() -> ops.stream().filter(op -> op.kind() == Kind.TRANSFER)
                .map(op -> TransferFeature.transfers(member).get(new TransferKey(op.from(), op.id())))
                .allMatch(transfer -> transfer == null || transfer.state().terminal()));
    }

    /**
     * The invariants: every balance is its opening plus its applied journal entries and never below its overdraft
     * limit; every transfer applied its steps once and as its answer says; every retry replayed the first answer;
     * and the total changed by exactly the applied single-account transactions (transfers move money, never make it).
     */
    void verify() {
        assertEquals(List.of(), retryMismatches, "retries answered differently from the first call");
        assertTrue(replays.get() > ops.size() / 10, "the workload retried too little: " + replays.get());
        assertEquals(ops.size(), firstAnswers.size() + abandoned.size());
        assertTrue(ops.stream().anyMatch(op -> op.mode() == ProcessingMode.LOCKED && op.kind() == Kind.TRANSFER));
        assertTrue(ops.stream().anyMatch(op -> op.mode() == ProcessingMode.PARTITIONED && op.kind() == Kind.TRANSFER));

        HazelcastInstance member = nodes.member(0);
        AccountService accounts = bean(nodes.servers().get(0), AccountService.class);
        Map<String, Map<String, JournalEntry>> journals = new HashMap<>();
        long openingTotal = 0;
        long finalTotal = 0;
        for (String id : accountIds) {
            Account open = opening.get(id);
            Account now = AccountFeature.accounts(member).get(id);
            List<JournalEntry> entries = accounts.journal(id, Integer.MAX_VALUE);
            journals.put(id, entries.stream().collect(Collectors.toMap(JournalEntry::txId, entry -> entry)));
            assertEquals(entries.size(), journals.get(id).size(), "one journal entry per txId on " + id);
            assertEquals(now.version(), entries.size(), "every recorded transaction of " + id + " is journaled");
            long applied = 0;
            for (JournalEntry entry : entries) {
                assertTrue(entry.balanceAfter() >= -open.overdraftLimit(), entry + " below the overdraft limit");
                if (entry.status() == TxStatus.APPLIED) {
                    applied += entry.type().delta(entry.amount());
                }
            }
            assertEquals(open.balance() + applied, now.balance(), "balance of " + id);
            assertTrue(now.balance() >= -open.overdraftLimit(), id + " below its overdraft limit");
            openingTotal += open.balance();
            finalTotal += now.balance();
        }

        long transactionsApplied = 0;
        int completed = 0;
        for (Op op : ops) {
            if (op.kind() == Kind.TRANSACTION) {
                JournalEntry entry = journals.get(op.from()).get(op.id());
                assertNotNull(entry, "journal entry of " + op);
                assertEquals(firstAnswers.get(op.id()), entry.status() + " " + entry.balanceAfter(), op.toString());
                if (entry.status() == TxStatus.APPLIED) {
                    transactionsApplied += entry.type().delta(entry.amount());
                }
                continue;
            }
            Transfer transfer = TransferFeature.transfers(member).get(new TransferKey(op.from(), op.id()));
            if (transfer == null) {
                // Abandoned before its record was written: it must have left no trace at all.
                assertTrue(abandoned.contains(op.id()), "record of " + op);
                assertNull(journals.get(op.from()).get(transfer(op).debit().txId()), op.toString());
                continue;
            }
            assertTrue(transfer.state().terminal(), transfer.toString());
            if (firstAnswers.containsKey(op.id())) {
                assertEquals(firstAnswers.get(op.id()), transfer.state() + " " + transfer.fromBalance() + " "
                        + transfer.toBalance(), op.toString());
            }
            JournalEntry out = journals.get(op.from()).get(transfer.debit().txId());
            JournalEntry in = journals.get(op.to()).get(transfer.credit().txId());
            assertNotNull(out, "debit of " + transfer);
            if (transfer.state() == TransferState.COMPLETED) {
                completed++;
                assertEquals(TxStatus.APPLIED, out.status(), transfer.toString());
                assertNotNull(in, "credit of " + transfer);
                assertEquals(TxStatus.APPLIED, in.status(), transfer.toString());
                assertEquals(transfer.fromBalance(), out.balanceAfter());
                assertEquals(transfer.toBalance(), in.balanceAfter());
            } else {
                assertEquals(Transfer.INSUFFICIENT_FUNDS, transfer.reason(), transfer.toString());
                assertEquals(TxStatus.REJECTED, out.status(), transfer.toString());
                assertNull(in, "no credit for " + transfer);
            }
        }
        assertTrue(completed > 0, "no transfer completed");
        assertEquals(openingTotal + transactionsApplied, finalTotal, "money is conserved");
    }

    private static Transfer transfer(Op op) {
        return Transfer.begin(new TransferRequest(op.id(), op.from(), op.to(), op.amount()), 0, "-");
    }
}
