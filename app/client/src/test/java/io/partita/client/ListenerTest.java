package io.partita.client;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@link ClientListener}: each call's end with its outcome, each retry, each table read, each gathered batch. */
class ListenerTest {

    /** Every event as text: {@code call transaction <node> 1 OK}, {@code retry transaction <node> 1 503}, ... */
    private static final class Recorder implements ClientListener {
        final Queue<String> events = new ConcurrentLinkedQueue<>();
        final Queue<Long> nanos = new ConcurrentLinkedQueue<>();

        @Override
        public void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
            events.add("call " + operation + " " + node + " " + attempts + " " + outcome);
            this.nanos.add(nanos);
        }

        @Override
        public void onRetry(String operation, URI node, int attempt, int status, long waitNanos) {
            events.add("retry " + operation + " " + node + " " + attempt + " " + status
                    + (waitNanos >= 20_000_000L ? "" : " too soon: " + waitNanos));
        }

        @Override
        public void onRefresh(URI node, boolean ok, long nanos) {
            events.add("refresh " + node + " " + ok);
        }

        @Override
        public void onCoalesced(URI node, int items) {
            events.add("coalesced " + node + " " + items);
        }

        List<String> events() {
            return new ArrayList<>(events);
        }
    }

    private static final String APPLIED = FakeAnswers.applied("t-1", "a-1", 900);

    @Test
    void shouldReportEachCallWithItsOutcomeAndAttempts() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (FakeNode node = new FakeNode(request -> switch (calls.incrementAndGet()) {
            case 1 -> FakeNode.answer(200, "", APPLIED);
            case 2 -> FakeNode.answer(422, "", FakeAnswers.rejected("t-2", "a-1", 5));
            case 3 -> FakeNode.answer(404, "", FakeAnswers.problem(404, "not-found"));
            case 4 -> FakeNode.answer(503, "", FakeAnswers.problem(503, "unavailable"));
            case 5 -> FakeNode.answer(200, "", APPLIED);
            case 6 -> FakeNode.answer(200, "", "{\"id\":\"a-1\",\"balance\":900,\"overdraftLimit\":0,\"version\":3,"
                    + "\"partition\":7,\"owner\":\"m0\"}");
            default -> FakeNode.answer(503, "", FakeAnswers.problem(503, "unavailable"));
        })) {
            Recorder recorder = new Recorder();
            URI url = URI.create(node.url());
            try (PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).listener(recorder)
                    .retryBudget(Duration.ofMillis(200)).build()) {
                client.post("a-1", TxType.DEBIT, 100, "t-1");
                client.post("a-1", TxType.DEBIT, 100, "t-2");
                assertThrows(NotFoundException.class, () -> client.post("a-1", TxType.DEBIT, 100, "t-3"));
                client.post("a-1", TxType.DEBIT, 100, "t-4");
                client.account("a-1");
                assertThrows(OutcomeUnknownException.class, () -> client.post("a-1", TxType.DEBIT, 100, "t-5"));
            }
            List<String> events = recorder.events();
            assertEquals(List.of(
                    "call transaction " + url + " 1 OK",
                    "call transaction " + url + " 1 REJECTED",
                    "call transaction " + url + " 1 REFUSED",
                    "retry transaction " + url + " 1 503",
                    "call transaction " + url + " 2 OK",
                    "call account " + url + " 1 OK"), events.subList(0, 6));
            List<String> budget = events.subList(6, events.size());
            assertTrue(budget.size() >= 2 && budget.subList(0, budget.size() - 1).stream()
                    .allMatch(e -> e.startsWith("retry transaction " + url)), String.valueOf(budget));
            assertEquals("call transaction " + url + " " + (budget.size()) + " UNKNOWN",
                    budget.get(budget.size() - 1), "the retries, then the end: " + budget);
            assertTrue(recorder.nanos.stream().allMatch(n -> n > 0));
        }
    }

    @Test
    void shouldReportARetryAfterAConnectionErrorWithStatusZero() throws Exception {
        int deadPort = FakeNode.freePort();
        try (FakeNode live = new FakeNode(request -> FakeNode.answer(200, "", APPLIED))) {
            Recorder recorder = new Recorder();
            String dead = "http://127.0.0.1:" + deadPort;
            try (PartitaClient client = PartitaClient.builder(dead, live.url()).partitionAware(false)
                    .listener(recorder).build()) {
                client.post("a-1", TxType.DEBIT, 100, "t-1");
                client.post("a-1", TxType.DEBIT, 100, "t-1");
            }
            assertTrue(recorder.events().contains("retry transaction " + dead + " 1 0"), recorder.events().toString());
            assertTrue(recorder.events().contains("call transaction " + live.url() + " 2 OK"),
                    recorder.events().toString());
        }
    }

    @Test
    void shouldReportEachTableReadAndEachGatheredBatch() throws Exception {
        List<String> urls = new ArrayList<>();
        try (FakeNode node = new FakeNode(request -> {
            String table = FakeAnswers.table(request, urls, p -> 0);
            if (table != null) {
                return table;
            }
            List<String> items = new ArrayList<>();
            for (String txId : FakeAnswers.txIds(request)) {
                items.add(FakeAnswers.item(txId, FakeAnswers.applied(txId, "a-1", 1), 200, false));
            }
            return FakeNode.answer(200, "", FakeAnswers.array(items));
        }); FakeNode noTable = new FakeNode(request -> FakeNode.answer(500, "", "{}"))) {
            urls.add(node.url());
            Recorder recorder = new Recorder();
            try (PartitaClient client = PartitaClient.builder(node.url()).listener(recorder)
                    .coalesce(Duration.ofMillis(200), 100).build()) {
                List<CompletableFuture<TxResult>> calls = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    calls.add(client.postAsync("a-" + i, TxType.CREDIT, 1, "c-" + i));
                }
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(5)).until(() -> recorder.events().stream()
                        .filter(e -> e.startsWith("call ")).count() == 3);
            }
            assertEquals(List.of("refresh " + node.url() + " true", "coalesced " + node.url() + " 3",
                    "call transaction " + node.url() + " 1 OK", "call transaction " + node.url() + " 1 OK",
                    "call transaction " + node.url() + " 1 OK"), recorder.events());

            Recorder failed = new Recorder();
            try (PartitaClient client = PartitaClient.builder(noTable.url()).listener(failed).build()) {
                assertThrows(PartitaException.class, () -> client.debit("a-1", 1), "500 from the fake");
            }
            assertEquals("refresh null false", failed.events().get(0));
        }
    }

    @Test
    void shouldIgnoreAListenerThatThrows() throws Exception {
        ClientListener broken = new ClientListener() {
            @Override
            public void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
                throw new IllegalStateException("a broken metric");
            }
        };
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).listener(broken)
                     .build()) {
            assertTrue(client.post("a-1", TxType.DEBIT, 100, "t-1").applied());
        }
    }
}
