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
import java.util.UUID;

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
        nodes = new Nodes(2, Nodes.QUICK_TO_NOTICE_A_KILL);
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
        List<String> accounts = new ArrayList<>();
        try (PartitaClient client = PartitaClient.builder(nodes.urls()).retryBudget(Duration.ofSeconds(60))
                .attemptTimeout(Duration.ofSeconds(5)).build()) {
            for (int i = 0; i < 24; i++) {
                accounts.add(run + "-k" + i);
                client.openAccount(accounts.get(i), OPENING, 0);
            }
            Callers callers = new Callers(List.of(client), accounts, 6, 1, 0).start();
            callers.awaitMore(300, Duration.ofSeconds(30));
            // Of two members, only a crash of the younger leaves the other serving (README, "Network splits").
            nodes.kill(nodes.youngest());
            callers.awaitMore(300, Duration.ofSeconds(90));
            callers.stop();

            callers.assertEachAcknowledgedOnce(client, OPENING);
        }
    }
}
