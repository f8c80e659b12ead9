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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against three real node processes ({@code PARTITA_CLUSTER_SIZE=3}): two start, and the third joins
 * while a client is in use, which must then send each account's calls to its new owner; then a {@code kill -9} of a
 * node that is not the oldest and its restart on the same ports, under load from a plain and a gathering client,
 * must leave every caller a definite answer and every transaction applied and journalled once. The join runs first
 * and leaves the three nodes the kill needs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ThreeNodeIT {

    private static final long OPENING = 1_000_000;
    private static Nodes nodes;
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startTwoOfThree() throws Exception {
        nodes = new Nodes(3, 2, Nodes.QUICK_TO_NOTICE_A_KILL);
    }

    @AfterAll
    static void stopNodes() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    @Order(1)
    void shouldSendEachAccountsCallsToItsNewOwnerAfterANodeJoins() throws Exception {
        try (PartitaClient client = PartitaClient.builder(nodes.url(0)).build()) {
            List<String> accounts = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                accounts.add(run + "-m" + i);
                client.openAccount(accounts.get(i), 0, 0);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> client.router().table() != null
                    && client.router().table().nodes().size() == 2);
            Map<String, URI> ownerBefore = owners(client, accounts);
            assertTrue(sendsEachToItsOwner(client, accounts), "with two nodes, each call reaches its owner");

            nodes.start(2);
            nodes.awaitSafe(3);
            long joined = System.nanoTime();

            // Within a bounded wait, every call reaches its account's owner as the node itself reports it.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> sendsEachToItsOwner(client, accounts));
            long followedMillis = (System.nanoTime() - joined) / 1_000_000;

            Map<String, URI> ownerAfter = owners(client, accounts);
            URI newcomer = URI.create(nodes.url(2));
            long moved = accounts.stream().filter(id -> !ownerAfter.get(id).equals(ownerBefore.get(id))).count();
            assertTrue(ownerAfter.containsValue(newcomer), "the new node owns some of the accounts: " + ownerAfter);
            assertTrue(moved > 0, "some accounts moved to the new node");
            System.out.println("ThreeNodeIT: " + moved + " of " + accounts.size() + " accounts moved; the client "
                    + "followed within " + followedMillis + " ms of the cluster being safe with 3");
        }
    }

    /** Each account's owner as the node reports it ({@code owner}), mapped to its URL through the client's table. */
    private static Map<String, URI> owners(PartitaClient client, List<String> accounts) {
        Map<String, URI> owners = new HashMap<>();
        for (String id : accounts) {
            URI owner = client.router().table().urlByAddress().get(client.account(id).owner());
            assertNotNull(owner, id + "'s owner is in the client's table");
            owners.put(id, owner);
        }
        return owners;
    }

    /**
     * One credit per account; whether each node's HTTP edge answered exactly the credits of the accounts it owns
     * (counted by its own {@code partita_transactions_total} meter). False while the client's table or the owners move.
     */
    private static boolean sendsEachToItsOwner(PartitaClient client, List<String> accounts) {
        Map<String, URI> urls = client.router().table().urlByAddress();
        Map<URI, Long> expected = new HashMap<>();
        for (String id : accounts) {
            URI owner = urls.get(client.account(id).owner());
            if (owner == null) {
                return false;
            }
            expected.merge(owner, 1L, Long::sum);
        }
        long[] before = new long[3];
        for (int i = 0; i < 3; i++) {
            before[i] = nodes.running(i) ? nodes.transactionsServed(i) : 0;
        }
        for (String id : accounts) {
            assertTrue(client.credit(id, 1).applied());
        }
        for (int i = 0; i < 3; i++) {
            long served = nodes.running(i) ? nodes.transactionsServed(i) - before[i] : 0;
            if (served != expected.getOrDefault(URI.create(nodes.url(i)), 0L)) {
                return false;
            }
        }
        return true;
    }

    @Test
    @Order(2)
    void shouldApplyEveryTransactionExactlyOnceThroughAKillAndARestart() throws Exception {
        if (!nodes.running(2)) {
            nodes.start(2); // the join above failed before it started the third node
        }
        nodes.awaitSafe(3);
        List<String> accounts = new ArrayList<>();
        try (PartitaClient plain = PartitaClient.builder(nodes.urls()).retryBudget(Duration.ofSeconds(60))
                .attemptTimeout(Duration.ofSeconds(5)).build();
             // A batch answers 503 per item after 4 request timeouts (12 s here): wait for it.
             PartitaClient gathering = PartitaClient.builder(nodes.urls()).retryBudget(Duration.ofSeconds(60))
                     .attemptTimeout(Duration.ofSeconds(15)).coalesce(Duration.ofMillis(1), 64).build()) {
            for (int i = 0; i < 150; i++) {
                accounts.add(run + "-k" + i);
                plain.openAccount(accounts.get(i), OPENING, 0);
            }
            // 4 callers, each 4 calls at once then a 5 ms pause: a steady load that leaves the 2 cores to the nodes.
            Callers callers = new Callers(List.of(plain, gathering), accounts, 4, 4, 5).start();
            long start = System.nanoTime();
            callers.awaitMore(300, Duration.ofSeconds(30));

            int victim = nodes.youngest();
            nodes.kill(victim);
            long killed = System.nanoTime();
            callers.awaitMore(200, Duration.ofSeconds(60));
            long servedWithTwo = System.nanoTime();

            nodes.start(victim);
            nodes.awaitSafe(3);
            long back = System.nanoTime();
            callers.awaitMore(300, Duration.ofSeconds(60));
            callers.stop();
            System.out.printf("ThreeNodeIT: node %d killed after %d ms; 200 calls served without it in %d ms; back "
                            + "and safe after %d ms more; %d calls in all%n", victim, (killed - start) / 1_000_000,
                    (servedWithTwo - killed) / 1_000_000, (back - servedWithTwo) / 1_000_000, callers.answered());

            callers.assertEachAcknowledgedOnce(plain, OPENING);
        }
    }
}
