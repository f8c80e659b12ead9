package io.partita.client;

import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retry rules against scripted nodes: what is retried with the same body, what is not, and the budget. The
 * client runs without partition awareness here (the fake nodes have no table).
 */
class RetryTest {

    private static final String APPLIED =
            "{\"txId\":\"t-1\",\"accountId\":\"a-1\",\"status\":\"APPLIED\",\"balance\":900}";
    private static final String LOST = "{\"type\":\"https://partita.dev/problems/partition-lost\",\"title\":"
            + "\"Partition lost\",\"status\":503,\"detail\":\"The data of partition 22 is not available\"}";
    private static final String BUSY = "{\"type\":\"https://partita.dev/problems/unavailable\",\"title\":\"Service "
            + "unavailable\",\"status\":503,\"detail\":\"busy\"}";

    @Test
    void shouldResendTheSameBodyAfterA503AndWaitWhatRetryAfterSays() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (FakeNode node = new FakeNode(request -> calls.incrementAndGet() == 1
                ? FakeNode.answer(503, "Retry-After: 1\r\n", BUSY) : FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            long start = System.nanoTime();
            TxResult result = client.post("a-1", TxType.DEBIT, 100, "t-1");
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;

            assertTrue(result.applied());
            assertEquals(900, result.balance());
            assertEquals(2, result.attempts());
            assertEquals(2, node.requests.size());
            assertEquals(node.requests.get(0), node.requests.get(1), "the retry is the same request, same txId");
            assertTrue(waitedMillis >= 1000, "Retry-After: 1 was honoured, waited " + waitedMillis + " ms");
        }
    }

    @Test
    void shouldThrowAPartitionLostAnswerAsItsTypeOnceTheBudgetCannotWaitForItsRetryAfter() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(503, "Retry-After: 5\r\n", LOST));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false)
                     .retryBudget(Duration.ofSeconds(2)).build()) {
            PartitionLostException e = assertThrows(PartitionLostException.class,
                    () -> client.post("a-1", TxType.DEBIT, 100, "t-1"));
            assertEquals(503, e.status());
            assertEquals(1, node.requests.size(), "Retry-After: 5 is past the 2 s budget: no second send");
        }
    }

    @Test
    void shouldSendAPartitionLostCallAgainWithinTheBudgetSinceItsDataMayComeBack() throws Exception {
        // A whole-cluster restart: the partition answers partition-lost until its members have rejoined.
        AtomicInteger calls = new AtomicInteger();
        try (FakeNode node = new FakeNode(request -> calls.incrementAndGet() <= 2
                ? FakeNode.answer(503, "Retry-After: 1\r\n", LOST) : FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            TxResult result = client.post("a-1", TxType.DEBIT, 100, "t-1");

            assertTrue(result.applied());
            assertEquals(3, result.attempts());
            assertEquals(node.requests.get(0), node.requests.get(2), "the same request, the same txId");
        }
    }

    @Test
    void shouldThrowAnAnswerItCannotReadWithItsStatusRatherThanMakeUpABalance() throws Exception {
        String noBalance = "{\"txId\":\"t-1\",\"accountId\":\"a-1\",\"status\":\"APPLIED\",\"balance\":\"ninety\"}";
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", noBalance));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            UnreadableAnswerException e = assertThrows(UnreadableAnswerException.class,
                    () -> client.post("a-1", TxType.DEBIT, 100, "t-1"));
            assertEquals(200, e.status());
            assertTrue(e.getMessage().contains("ninety"), e.getMessage());
            assertEquals(1, node.requests.size(), "the node decided: nothing to retry");
        }
    }

    @Test
    void shouldGiveUpWithTheTxIdWhenTheBudgetIsSpent() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(503, "", BUSY));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false)
                     .retryBudget(Duration.ofMillis(300)).build()) {
            long start = System.nanoTime();
            OutcomeUnknownException e = assertThrows(OutcomeUnknownException.class,
                    () -> client.post("a-1", TxType.CREDIT, 5, "t-budget"));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertEquals("t-budget", e.txId());
            assertTrue(e.attempts() >= 2, "retried before giving up: " + e.attempts());
            assertTrue(tookMillis < 1_000, "kept to its 300 ms budget, took " + tookMillis + " ms");
        }
    }

    @Test
    void shouldTryAnotherNodeAfterAConnectionError() throws Exception {
        int deadPort;
        try (ServerSocket reserved = new ServerSocket(0)) {
            deadPort = reserved.getLocalPort();
        }
        try (FakeNode live = new FakeNode(request -> FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder("http://127.0.0.1:" + deadPort, live.url())
                     .partitionAware(false).build()) {
            for (int i = 0; i < 4; i++) {
                assertTrue(client.post("a-1", TxType.DEBIT, 100, "t-1").applied());
            }
            assertEquals(4, live.requests.size());
        }
    }

    @Test
    void shouldMapEachRefusalToItsType() throws Exception {
        String[][] cases = {
                {"404", "not-found", NotFoundException.class.getName()},
                {"409", "txid-conflict", IdReusedException.class.getName()},
                {"409", "account-exists", AlreadyExistsException.class.getName()},
                {"409", "job-running", PartitaException.class.getName()},
                {"401", "unauthorized", AuthenticationException.class.getName()},
                {"403", "forbidden", AuthenticationException.class.getName()},
                {"400", "invalid-request", PartitaException.class.getName()},
        };
        for (String[] c : cases) {
            String body = "{\"type\":\"https://partita.dev/problems/" + c[1] + "\",\"title\":\"t\",\"status\":" + c[0]
                    + ",\"detail\":\"d\"}";
            try (FakeNode node = new FakeNode(request -> FakeNode.answer(Integer.parseInt(c[0]), "", body));
                 PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
                PartitaException e = assertThrows(PartitaException.class,
                        () -> client.post("a-1", TxType.DEBIT, 1, "t-1"));
                assertEquals(c[2], e.getClass().getName(), c[1]);
                assertEquals(Integer.parseInt(c[0]), e.status());
                assertEquals(1, node.requests.size(), c[1] + " is definite: not retried");
            }
        }
    }

    @Test
    void shouldSendEachRequestInOneWriteWithoutAnUpgradeHeader() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            client.post("a-1", TxType.DEBIT, 100, "t-1");
            client.post("a-1", TxType.DEBIT, 100, "t-1");
            assertEquals("POST /accounts/a-1/transactions HTTP/1.1", node.requests.get(0).line());
            assertEquals("{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":100}", node.requests.get(0).body());
        }
    }
}
