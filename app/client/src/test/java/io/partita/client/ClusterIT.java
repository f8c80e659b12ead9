package io.partita.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against two real nodes: each call reaches its account's owner (counted by the nodes' own HTTP meters),
 * and a {@code kill -9} of the younger node (of two, only its crash leaves the other serving) in the middle of a load
 * leaves every caller with a definite answer and every transaction applied exactly once. The routing test runs first;
 * the kill ends the cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

    private static final long OPENING = 1_000_000;
    private static Nodes nodes;
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startNodes() throws Exception {
        // A killed member is noticed within seconds, and a call to it waits at most 3 s before its 503.
        nodes = new Nodes(2, Map.of("PARTITA_HEARTBEAT_TIMEOUT", "5s", "PARTITA_REQUEST_TIMEOUT", "3s"));
    }

    @AfterAll
    static void stopNodes() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Order(1)
    void shouldSendEachTransactionToTheNodeThatOwnsItsAccount() {
        try (PartitaClient client = PartitaClient.builder(nodes.url(0)).build()) {
            List<String> accounts = new ArrayList<>();
            Map<URI, Long> expected = new HashMap<>();
            for (int i = 0; i < 40; i++) {
                String id = run + "-own" + i;
                accounts.add(id);
                client.openAccount(id, 0, 0);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> client.router().table() != null
                    && client.router().table().nodes().size() == 2);
            Map<String, URI> urlByAddress = client.router().table().urlByAddress();
            for (String id : accounts) {
                // The owner as the node itself reports it, not as the client computed it.
                URI owner = urlByAddress.get(client.account(id).owner());
                expected.merge(owner, 5L, Long::sum);
            }
            long before0 = nodes.transactionsServed(0);
            long before1 = nodes.transactionsServed(1);

            for (String id : accounts) {
                for (int k = 0; k < 5; k++) {
                    assertTrue(client.credit(id, 1).applied());
                }
            }

            assertEquals(expected.getOrDefault(URI.create(nodes.url(0)), 0L), nodes.transactionsServed(0) - before0);
            assertEquals(expected.getOrDefault(URI.create(nodes.url(1)), 0L), nodes.transactionsServed(1) - before1);
            assertTrue(expected.size() == 2, "the accounts are spread over both nodes: " + expected);
        }
    }

    @Test
    @Order(2)
    void shouldApplyEveryTransactionExactlyOnceThroughANodeKill() throws Exception {
        int accountCount = 24;
        List<String> accounts = new ArrayList<>();
        try (PartitaClient client = PartitaClient.builder(nodes.urls()).retryBudget(Duration.ofSeconds(60))
                .attemptTimeout(Duration.ofSeconds(5)).build()) {
            for (int i = 0; i < accountCount; i++) {
                accounts.add(run + "-k" + i);
                client.openAccount(accounts.get(i), OPENING, 0);
            }
            Queue<TxResult> answered = new ConcurrentLinkedQueue<>();
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Map<String, Long> amounts = new ConcurrentHashMap<>();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong afterKill = new AtomicLong();
            AtomicBoolean killed = new AtomicBoolean();
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                Thread caller = new Thread(() -> {
                    while (!stop.get()) {
                        String account = accounts.get(ThreadLocalRandom.current().nextInt(accountCount));
                        long amount = 1 + ThreadLocalRandom.current().nextInt(100);
                        TxType type = ThreadLocalRandom.current().nextBoolean() ? TxType.DEBIT : TxType.CREDIT;
                        String txId = PartitaClient.newTxId();
                        amounts.put(txId, type == TxType.DEBIT ? -amount : amount);
                        try {
                            answered.add(client.post(account, type, amount, txId));
                            if (killed.get()) {
                                afterKill.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    }
                }, "caller-" + t);
                caller.start();
                callers.add(caller);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() >= 300);
            // Of two members, only a crash of the younger leaves the other serving (README, "Network splits").
            nodes.kill(nodes.youngest());
            killed.set(true);
            await().atMost(Duration.ofSeconds(90)).until(() -> afterKill.get() >= 300 || !failures.isEmpty());
            stop.set(true);
            for (Thread caller : callers) {
                caller.join(Duration.ofSeconds(70).toMillis());
            }

            assertTrue(failures.isEmpty(), "every caller got a definite answer: " + failures);
            Map<String, Long> expected = new HashMap<>();
            Map<String, List<String>> acknowledged = new HashMap<>();
            for (TxResult result : answered) {
                assertTrue(result.applied(), "no debit here can pass the limit: " + result);
                expected.merge(result.accountId(), amounts.get(result.txId()), Long::sum);
                acknowledged.computeIfAbsent(result.accountId(), a -> new ArrayList<>()).add(result.txId());
            }
            for (String account : accounts) {
                long balance = client.account(account).balance();
                assertEquals(OPENING + expected.getOrDefault(account, 0L), balance, account
                        + ": the balance is the opening plus each acknowledged transaction once");
                List<String> told = acknowledged.getOrDefault(account, List.of());
                // The journal is written behind the transaction; wait for it rather than read it once.
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    List<JournalLine> journal = client.journal(account, 1000);
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
}
