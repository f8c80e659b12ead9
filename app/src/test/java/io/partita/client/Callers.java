package io.partita.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Callers posting random debits and credits through clients until stopped, and the exactly-once check of what they
 * were told: every balance is its opening plus each acknowledged amount once, and every account's journal holds each
 * acknowledged txId once and nothing else. The ITs that crash, restart or migrate nodes under load share it.
 * <b>Threads:</b> its own caller threads write the records (concurrent collections); the test's thread starts, waits,
 * stops and checks.
 */
final class Callers {

    private final List<PartitaClient> clients;
    private final List<String> accounts;
    private final int threads;
    private final int burst;
    private final long pauseMillis;
    private final Queue<TxResult> answered = new ConcurrentLinkedQueue<>();
    private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> amounts = new ConcurrentHashMap<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> running = new ArrayList<>();

    /**
     * @param clients     caller {@code t} uses {@code clients.get(t % clients.size())}
     * @param burst       1: one sync call at a time; more: that many {@code postAsync} at once, then wait for all
     * @param pauseMillis each caller's pause between its calls (bursts), to bound the journal each account collects
     */
    Callers(List<PartitaClient> clients, List<String> accounts, int threads, int burst, long pauseMillis) {
        this.clients = List.copyOf(clients);
        this.accounts = List.copyOf(accounts);
        this.threads = threads;
        this.burst = burst;
        this.pauseMillis = pauseMillis;
    }

    Callers start() {
        for (int t = 0; t < threads; t++) {
            PartitaClient client = clients.get(t % clients.size());
            Thread caller = new Thread(() -> call(client), "caller-" + t);
            caller.start();
            running.add(caller);
        }
        return this;
    }

    private void call(PartitaClient client) {
        while (!stop.get()) {
            List<CompletableFuture<TxResult>> calls = new ArrayList<>();
            for (int i = 0; i < burst; i++) {
                String account = accounts.get(ThreadLocalRandom.current().nextInt(accounts.size()));
                long amount = 1 + ThreadLocalRandom.current().nextInt(100);
                TxType type = ThreadLocalRandom.current().nextBoolean() ? TxType.DEBIT : TxType.CREDIT;
                String txId = PartitaClient.newTxId();
                amounts.put(txId, type == TxType.DEBIT ? -amount : amount);
                if (burst == 1) {
                    try {
                        calls.add(CompletableFuture.completedFuture(client.post(account, type, amount, txId)));
                    } catch (RuntimeException e) {
                        calls.add(CompletableFuture.failedFuture(e));
                    }
                } else {
                    calls.add(client.postAsync(account, type, amount, txId));
                }
            }
            for (CompletableFuture<TxResult> call : calls) {
                try {
                    answered.add(call.join());
                    count.incrementAndGet();
                } catch (CompletionException e) {
                    failures.add(e.getCause());
                }
            }
            if (pauseMillis > 0) {
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** How many calls have been answered. */
    long answered() {
        return count.get();
    }

    /** Waits until {@code more} calls beyond those answered so far are answered, or until any caller fails. */
    void awaitMore(long more, Duration atMost) {
        long target = count.get() + more;
        await().atMost(atMost).until(() -> count.get() >= target || !failures.isEmpty());
    }

    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread caller : running) {
            caller.join(Duration.ofSeconds(90).toMillis());
        }
    }

    /**
     * No caller saw an error (each got a definite answer within its retry budget); every balance is the opening plus
     * each acknowledged transaction once; every journal holds each acknowledged txId exactly once and nothing more.
     */
    void assertEachAcknowledgedOnce(PartitaClient reader, long opening) {
        assertTrue(failures.isEmpty(), "every caller got a definite answer: " + failures);
        Map<String, Long> expected = new HashMap<>();
        Map<String, List<String>> acknowledged = new HashMap<>();
        for (TxResult result : answered) {
            assertTrue(result.applied(), "no debit here can pass the limit: " + result);
            expected.merge(result.accountId(), amounts.get(result.txId()), Long::sum);
            acknowledged.computeIfAbsent(result.accountId(), a -> new ArrayList<>()).add(result.txId());
        }
        for (String account : accounts) {
            long balance = reader.account(account).balance();
            assertEquals(opening + expected.getOrDefault(account, 0L), balance, account
                    + ": the balance is the opening plus each acknowledged transaction once");
            List<String> told = acknowledged.getOrDefault(account, List.of());
            assertTrue(told.size() < 1000, account + " has " + told.size() + " transactions, more than one journal "
                    + "read shows: give the test more accounts or fewer calls");
            // The journal is written behind the transaction; wait for it rather than read it once.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<JournalLine> journal = reader.journal(account, 1000);
                Map<String, Long> seen = new HashMap<>();
                journal.forEach(line -> seen.merge(line.txId(), 1L, Long::sum));
                for (String txId : told) {
                    assertEquals(1L, seen.get(txId), account + " journals " + txId + " once");
                }
                assertEquals(told.size(), journal.size(), account
                        + ": nothing in its journal the callers were not told about");
            });
        }
    }
}
