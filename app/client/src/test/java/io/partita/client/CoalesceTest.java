package io.partita.client;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static io.partita.client.FakeAnswers.isBatch;
import static io.partita.client.FakeAnswers.isSingle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gathering single transactions into batches ({@code coalesce}) against scripted nodes: what is gathered and where it
 * goes, that each caller gets what its single call would have got, that an unknown outcome is resent with the same
 * txId within the caller's budget, and the node's limit on a batch.
 */
class CoalesceTest {

    /** Applies every transaction, single or gathered: the balance is ten times the amount. */
    private static String applyAll(FakeNode.Request request) {
        if (isBatch(request)) {
            List<String> answers = new ArrayList<>();
            for (Map<String, Object> item : FakeAnswers.items(request)) {
                String txId = (String) item.get("txId");
                answers.add(FakeAnswers.item(txId, FakeAnswers.applied(txId, (String) item.get("accountId"),
                        10 * ((Number) item.get("amount")).longValue()), 200, false));
            }
            return FakeNode.answer(200, "", FakeAnswers.array(answers));
        }
        if (isSingle(request)) {
            Map<String, Object> single = FakeAnswers.single(request);
            return FakeNode.answer(200, "", FakeAnswers.applied((String) single.get("txId"),
                    FakeAnswers.accountOf(request), 10 * ((Number) single.get("amount")).longValue()));
        }
        return FakeNode.answer(404, "", FakeAnswers.problem(404, "not-found"));
    }

    private static PartitaClient.Builder coalescing(FakeNode node, Duration window, int maxBatch) {
        return PartitaClient.builder(node.url()).partitionAware(false).coalesce(window, maxBatch);
    }

    @Test
    void shouldGatherCallsMadeWithinTheWindowIntoOneBatchAndAnswerEachCallerItsOwn() throws Exception {
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll);
             PartitaClient client = coalescing(node, Duration.ofMillis(200), 100).build()) {
            List<CompletableFuture<TxResult>> calls = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                calls.add(client.postAsync("a-" + i % 5, i % 2 == 0 ? TxType.DEBIT : TxType.CREDIT, i, "t-" + i));
            }
            for (int i = 1; i <= 20; i++) {
                TxResult result = calls.get(i - 1).get(5, TimeUnit.SECONDS);
                assertEquals("t-" + i, result.txId());
                assertEquals("a-" + i % 5, result.accountId());
                assertEquals(10L * i, result.balance());
                assertTrue(result.applied());
                assertEquals(1, result.attempts());
            }
            assertEquals(1, node.requests.size(), "one batch for the 20 calls: " + node.requests);
            FakeNode.Request batch = node.requests.get(0);
            assertEquals("POST /transactions/batch HTTP/1.1", batch.line());
            List<Map<String, Object>> items = FakeAnswers.items(batch);
            assertEquals(20, items.size());
            assertEquals(Map.of("txId", "t-2", "accountId", "a-2", "type", "DEBIT", "amount", 2L), items.get(1),
                    "each item is the single call's body plus its account");
        }
    }

    @Test
    void shouldGatherSyncCallersOnTheirOwnThreadsAndAnswerEachItsOwn() throws Exception {
        int callers = 8;
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll);
             PartitaClient client = coalescing(node, Duration.ofMillis(300), 100).build()) {
            CountDownLatch go = new CountDownLatch(1);
            Map<Integer, TxResult> results = new ConcurrentHashMap<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 1; i <= callers; i++) {
                int n = i;
                Thread thread = new Thread(() -> {
                    try {
                        go.await();
                        results.put(n, client.post("a-" + n, TxType.CREDIT, n, "sync-" + n));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                thread.start();
                threads.add(thread);
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            for (int i = 1; i <= callers; i++) {
                assertEquals("sync-" + i, results.get(i).txId());
                assertEquals(10L * i, results.get(i).balance());
            }
            assertTrue(node.requests.size() < callers, callers + " calls went in fewer requests: " + node.requests);
            assertEquals(callers, node.requests.stream().mapToInt(r -> FakeAnswers.txIds(r).size()).sum());
        }
    }

    @Test
    void shouldAnswerEachGatheredCallExactlyAsItsSingleCall() throws Exception {
        // txId -> the node's answer to it: status, body, whether replayed. The same script answers single and batch.
        Map<String, Object[]> script = new LinkedHashMap<>();
        script.put("t-ok", new Object[]{200, FakeAnswers.applied("t-ok", "a-1", 900), false});
        script.put("t-replayed", new Object[]{200, FakeAnswers.applied("t-replayed", "a-1", 800), true});
        script.put("t-rejected", new Object[]{422, FakeAnswers.rejected("t-rejected", "a-2", -20), false});
        script.put("t-rejected-again", new Object[]{422, FakeAnswers.rejected("t-rejected-again", "a-2", -20), true});
        script.put("t-missing", new Object[]{404, FakeAnswers.problem(404, "not-found"), false});
        script.put("t-reused", new Object[]{409, FakeAnswers.problem(409, "txid-conflict"), false});
        script.put("t-lost", new Object[]{503, FakeAnswers.problem(503, "partition-lost"), false});
        script.put("t-invalid", new Object[]{400, FakeAnswers.problem(400, "invalid-request"), false});
        script.put("t-denied", new Object[]{403, FakeAnswers.problem(403, "forbidden"), false});
        Function<FakeNode.Request, String> scripted = request -> {
            if (isBatch(request)) {
                List<String> answers = new ArrayList<>();
                for (String txId : FakeAnswers.txIds(request)) {
                    Object[] answer = script.get(txId);
                    answers.add(FakeAnswers.item(txId, (String) answer[1], (int) answer[0], (boolean) answer[2]));
                }
                return FakeNode.answer(200, "", FakeAnswers.array(answers));
            }
            Object[] answer = script.get(FakeAnswers.txIds(request).get(0));
            return FakeNode.answer((int) answer[0], (boolean) answer[2] ? "Idempotent-Replayed: true\r\n" : "",
                    (String) answer[1]);
        };
        // A short budget: t-lost is sent again until it ends (a partition may come back), then thrown as lost.
        Duration budget = Duration.ofMillis(300);
        try (FakeNode node = new FakeNode(scripted);
             PartitaClient single = PartitaClient.builder(node.url()).partitionAware(false).retryBudget(budget)
                     .build();
             PartitaClient gathering = coalescing(node, Duration.ofMillis(200), 100).retryBudget(budget).build()) {
            Map<String, CompletableFuture<TxResult>> gathered = new LinkedHashMap<>();
            for (String txId : script.keySet()) {
                gathered.put(txId, gathering.postAsync("a-1", TxType.DEBIT, 5, txId));
            }
            for (String txId : script.keySet()) {
                String alone = seen(() -> CompletableFuture.completedFuture(single.post("a-1", TxType.DEBIT, 5,
                        txId)));
                assertEquals(alone, seen(() -> gathered.get(txId)), txId);
            }
            assertEquals(1, node.requests.stream().filter(FakeAnswers::isBatch).count(), "the 9 went as one batch");
            assertTrue(seen(() -> gathered.get("t-replayed")).contains("replayed=true"));
            assertTrue(seen(() -> gathered.get("t-rejected")).contains("INSUFFICIENT_FUNDS"));
            assertTrue(seen(() -> gathered.get("t-lost")).startsWith(PartitionLostException.class.getName()));
            assertTrue(seen(() -> gathered.get("t-reused")).startsWith(IdReusedException.class.getName()));
            assertTrue(seen(() -> gathered.get("t-missing")).startsWith(NotFoundException.class.getName()));
            assertTrue(seen(() -> gathered.get("t-denied")).startsWith(AuthenticationException.class.getName()));
        }
    }

    /** What a caller saw, as text: the result, or the exception's type, status and problem type. */
    private static String seen(java.util.concurrent.Callable<CompletableFuture<TxResult>> call) {
        try {
            return "result " + call.call().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return describe(e.getCause());
        } catch (Exception e) {
            return describe(e);
        }
    }

    private static String describe(Throwable e) {
        return e instanceof PartitaException refusal ? e.getClass().getName() + " " + refusal.status() + " "
                + refusal.type() : e.getClass().getName();
    }

    @Test
    void shouldResendAnItemWhoseOutcomeIsUnknownWithItsTxIdAndTheOthersNot() throws Exception {
        AtomicInteger batches = new AtomicInteger();
        Function<FakeNode.Request, String> answers = request -> {
            if (isBatch(request) && batches.incrementAndGet() == 1) {
                List<String> items = new ArrayList<>();
                for (Map<String, Object> item : FakeAnswers.items(request)) {
                    String txId = (String) item.get("txId");
                    items.add("t-2".equals(txId)
                            ? FakeAnswers.item(txId, FakeAnswers.problem(503, "unavailable"), 503, false)
                            : FakeAnswers.item(txId, FakeAnswers.applied(txId, "a-1", 1), 200, false));
                }
                return FakeNode.answer(200, "", FakeAnswers.array(items));
            }
            return applyAll(request);
        };
        try (FakeNode node = new FakeNode(answers);
             PartitaClient client = coalescing(node, Duration.ofMillis(100), 100).build()) {
            CompletableFuture<TxResult> first = client.postAsync("a-1", TxType.CREDIT, 1, "t-1");
            CompletableFuture<TxResult> second = client.postAsync("a-2", TxType.CREDIT, 2, "t-2");
            CompletableFuture<TxResult> third = client.postAsync("a-3", TxType.CREDIT, 3, "t-3");

            assertEquals(2, second.get(5, TimeUnit.SECONDS).attempts(), "sent twice");
            assertEquals(20, second.get().balance());
            assertEquals(1, first.get().attempts());
            assertEquals(1, third.get().attempts());
            assertEquals(2, node.requests.size(), "the batch, then t-2 once more: " + node.requests);
            FakeNode.Request resend = node.requests.get(1);
            assertEquals("POST /accounts/a-2/transactions HTTP/1.1", resend.line(), "alone, on the single route");
            assertEquals("{\"txId\":\"t-2\",\"type\":\"CREDIT\",\"amount\":2}", resend.body(), "with its own txId");
        }
    }

    @Test
    void shouldResendTheWholeBatchWithTheSameTxIdsAfterA503AndAfterALostConnection() throws Exception {
        AtomicInteger batches = new AtomicInteger();
        Function<FakeNode.Request, String> answers = request -> {
            int n = isBatch(request) ? batches.incrementAndGet() : 0;
            if (n == 1) {
                // Connection: close, so that the next batch goes on a new connection (a pooled one that ends before
                // its answer is taken for one the node had closed while idle, and sent once more at once).
                return FakeNode.answer(503, "Connection: close\r\n", FakeAnswers.problem(503, "unavailable"));
            }
            if (n == 2) {
                throw new IllegalStateException("the node dies before it answers: the connection closes");
            }
            return applyAll(request);
        };
        try (FakeNode node = new FakeNode(answers);
             PartitaClient client = coalescing(node, Duration.ofMillis(100), 100).build()) {
            List<CompletableFuture<TxResult>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(client.postAsync("a-" + i, TxType.DEBIT, 1 + i, "w-" + i));
            }
            for (int i = 0; i < 5; i++) {
                TxResult result = calls.get(i).get(10, TimeUnit.SECONDS);
                assertEquals("w-" + i, result.txId());
                assertEquals(3, result.attempts());
            }
            assertEquals(3, node.requests.size());
            assertEquals(node.requests.get(0), node.requests.get(1), "the same batch, the same txIds, again");
            assertEquals(node.requests.get(0), node.requests.get(2));
        }
    }

    @Test
    void shouldSendAFullBatchAtOnceAndALoneCallOnTheSingleRouteAfterTheWindow() throws Exception {
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll);
             PartitaClient client = coalescing(node, Duration.ofSeconds(20), 3).build()) {
            List<CompletableFuture<TxResult>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(client.postAsync("a-" + i, TxType.CREDIT, 1, "full-" + i));
            }
            // The window is 20 s: the two full batches did not wait for it.
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
            assertEquals(2, node.requests.size());
            node.requests.forEach(request -> assertEquals(3, FakeAnswers.items(request).size()));
        }
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll);
             PartitaClient client = coalescing(node, Duration.ofMillis(300), 3).build()) {
            long start = System.nanoTime();
            TxResult alone = client.credit("a-1", 4);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(40, alone.balance());
            assertTrue(tookMillis >= 300, "it waited for the window: " + tookMillis + " ms");
            assertEquals(1, node.requests.size());
            assertTrue(isSingle(node.requests.get(0)), "a window of one call sends it as itself");
        }
    }

    @Test
    void shouldGatherPerOwnerAndSendEachBatchToItsOwner() throws Exception {
        List<String> urls = new ArrayList<>();
        // Even partitions on m0, odd on m1.
        Function<FakeNode.Request, String> answers = request -> {
            String table = FakeAnswers.table(request, urls, p -> p % 2);
            return table != null ? table : applyAll(request);
        };
        try (FakeNode even = new FakeNode(answers); FakeNode odd = new FakeNode(answers)) {
            urls.add(even.url());
            urls.add(odd.url());
            try (PartitaClient client = PartitaClient.builder(even.url()).coalesce(Duration.ofMillis(200), 100)
                    .build()) {
                List<CompletableFuture<TxResult>> calls = new ArrayList<>();
                for (int i = 0; i < 30; i++) {
                    calls.add(client.postAsync("acct-" + i, TxType.CREDIT, 1, "own-" + i));
                }
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
                for (FakeNode node : List.of(even, odd)) {
                    List<FakeNode.Request> batches = node.requests.stream().filter(FakeAnswers::isBatch).toList();
                    assertEquals(1, batches.size(), "one batch per owner");
                    int owner = node == even ? 0 : 1;
                    for (Map<String, Object> item : FakeAnswers.items(batches.get(0))) {
                        assertEquals(owner, PartitionHash.partitionOf((String) item.get("accountId"), 271) % 2,
                                item + " went to its owner");
                    }
                }
                assertEquals(30, even.requests.stream().filter(FakeAnswers::isBatch)
                        .mapToInt(r -> FakeAnswers.items(r).size()).sum() + odd.requests.stream()
                        .filter(FakeAnswers::isBatch).mapToInt(r -> FakeAnswers.items(r).size()).sum());
            }
        }
    }

    @Test
    void shouldSendEachCallAloneWhenTheNodeRefusesTheBatchAsAWhole() throws Exception {
        Function<FakeNode.Request, String> answers = request -> isBatch(request)
                ? FakeNode.answer(413, "", FakeAnswers.problem(413, "too-large")) : applyAll(request);
        try (FakeNode node = new FakeNode(answers);
             PartitaClient client = coalescing(node, Duration.ofMillis(100), 100).build()) {
            List<CompletableFuture<TxResult>> calls = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                calls.add(client.postAsync("a-" + i, TxType.CREDIT, i, "big-" + i));
            }
            for (int i = 1; i <= 4; i++) {
                assertEquals(10L * i, calls.get(i - 1).get(5, TimeUnit.SECONDS).balance());
            }
            assertEquals(1, node.requests.stream().filter(FakeAnswers::isBatch).count());
            assertEquals(Set.of("big-1", "big-2", "big-3", "big-4"), Set.copyOf(node.requests.stream()
                    .filter(FakeAnswers::isSingle).map(r -> FakeAnswers.txIds(r).get(0)).toList()));
        }
    }

    @Test
    void shouldGiveEachCallerItsOwnOutcomeUnknownWhenTheBudgetIsSpent() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(503, "", FakeAnswers.problem(503, "busy")));
             PartitaClient client = coalescing(node, Duration.ofMillis(5), 100).retryBudget(Duration.ofMillis(300))
                     .build()) {
            long start = System.nanoTime();
            CompletableFuture<TxResult> first = client.postAsync("a-1", TxType.DEBIT, 1, "u-1");
            OutcomeUnknownException second = assertThrows(OutcomeUnknownException.class,
                    () -> client.post("a-2", TxType.DEBIT, 1, "u-2"));
            ExecutionException firstFailed = assertThrows(ExecutionException.class,
                    () -> first.get(5, TimeUnit.SECONDS));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertEquals("u-2", second.txId());
            assertEquals("u-1", ((OutcomeUnknownException) firstFailed.getCause()).txId());
            assertTrue(second.attempts() >= 2, "retried before giving up: " + second.attempts());
            assertTrue(tookMillis < 2_000, "kept to its 300 ms budget, took " + tookMillis + " ms");
        }
    }

    @Test
    void shouldSendACallWhoseIdsTheNodeWouldRefuseAloneOnTheSingleRoute() throws Exception {
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll);
             PartitaClient client = coalescing(node, Duration.ofMillis(100), 100).build()) {
            CompletableFuture<TxResult> odd = client.postAsync("a b", TxType.CREDIT, 1, "odd-1");
            CompletableFuture<TxResult> plain = client.postAsync("a-1", TxType.CREDIT, 1, "plain-1");
            odd.get(5, TimeUnit.SECONDS);
            plain.get(5, TimeUnit.SECONDS);
            assertTrue(node.requests.stream().anyMatch(r -> r.line().equals(
                    "POST /accounts/a%20b/transactions HTTP/1.1")), "alone, for the single route's own 400: "
                    + node.requests);
            assertFalse(node.requests.stream().filter(FakeAnswers::isBatch).anyMatch(r -> r.body().contains("a b")));
        }
    }

    @Test
    void shouldEndTheCallsStillWaitingWhenTheClientCloses() throws Exception {
        try (FakeNode node = new FakeNode(CoalesceTest::applyAll)) {
            PartitaClient client = coalescing(node, Duration.ofSeconds(30), 100).build();
            CompletableFuture<TxResult> waiting = client.postAsync("a-1", TxType.CREDIT, 1, "late-1");
            client.close();
            ExecutionException ended = assertThrows(ExecutionException.class, () -> waiting.get(5, TimeUnit.SECONDS));
            assertEquals("late-1", ((OutcomeUnknownException) ended.getCause()).txId());
            assertTrue(node.requests.isEmpty(), "nothing was sent");
        }
    }

    @Test
    void shouldKeepBatchesWithinTheNodesLimit() {
        PartitaClient.Builder builder = PartitaClient.builder("http://127.0.0.1:1");
        assertThrows(IllegalArgumentException.class, () -> builder.coalesce(Duration.ofMillis(1), 10_001));
        assertThrows(IllegalArgumentException.class, () -> builder.coalesce(Duration.ofMillis(1), 0));
        assertThrows(IllegalArgumentException.class, () -> builder.coalesce(Duration.ofMillis(-1), 10));
        builder.coalesce(Duration.ZERO, 10_000).build().close();
    }
}
