package io.partita.client;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the client reports as definite and what as unknown, against scripted nodes: an attempt never sent changed
 * nothing, a read-back after a lost answer must match the call, a batch's undecided items are sent again and end
 * unknown (not refused) past the budget, a closed client fails at once, and a 400 names its fields.
 */
class DefiniteAnswersTest {

    private static final String EXISTS = "{\"type\":\"" + FakeAnswers.PROBLEMS + "account-exists\",\"title\":"
            + "\"Conflict\",\"status\":409,\"detail\":\"An account with id 'a-1' exists.\"}";
    private static final String BUSY_ITEM = "{\"type\":\"" + FakeAnswers.PROBLEMS + "unavailable\",\"title\":"
            + "\"Service unavailable\",\"status\":503,\"detail\":\"No definite answer could be had for this item.\","
            + "\"httpStatus\":503}";

    private static String account(long balance, long version) {
        return "{\"id\":\"a-1\",\"balance\":" + balance + ",\"overdraftLimit\":0,\"version\":" + version
                + ",\"partition\":7,\"owner\":\"127.0.0.1:5701\",\"mergeConflicts\":0}";
    }

    @Test
    void shouldReportAnOpenAsExistingWhenItsOnlyEarlierAttemptWasNeverSent() throws Exception {
        // The first attempt finds no node (connection refused): nothing was sent, so the 409 is about an older account.
        try (FakeNode live = new FakeNode(request -> request.line().startsWith("POST")
                ? FakeNode.answer(409, "", EXISTS) : FakeNode.answer(200, "", account(7, 0)));
             PartitaClient client = PartitaClient.builder("http://127.0.0.1:" + FakeNode.freePort(), live.url())
                     .partitionAware(false).build()) {
            assertThrows(AlreadyExistsException.class, () -> client.openAccount("a-1", 7, 0));
            assertEquals(1, live.requests.size(), "no read-back: " + live.requests);
        }
    }

    @Test
    void shouldReturnAnAccountReadBackAfterALostAnswerOnlyWhenItIsAsTheCallOpensIt() throws Exception {
        for (long version : new long[] {0, 5}) {
            AtomicInteger posts = new AtomicInteger();
            try (FakeNode node = new FakeNode(request -> {
                if (request.line().startsWith("POST") && posts.incrementAndGet() == 1) {
                    throw new IllegalStateException("the node dies after reading the request");
                }
                return request.line().startsWith("POST") ? FakeNode.answer(409, "", EXISTS)
                        : FakeNode.answer(200, "", account(7, version));
            });
                 PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
                if (version == 0) {
                    assertEquals(7, client.openAccount("a-1", 7, 0).balance());
                } else {
                    // Written to since: it may be an older account of that id, so it is not reported as opened.
                    assertThrows(AlreadyExistsException.class, () -> client.openAccount("a-1", 7, 0));
                }
                assertEquals(3, node.requests.size(), "POST, POST, GET: " + node.requests);
            }
        }
    }

    @Test
    void shouldSendABatchsUndecidedItemsAgainAloneWithTheirTxIds() throws Exception {
        AtomicInteger batches = new AtomicInteger();
        try (FakeNode node = new FakeNode(request -> batches.incrementAndGet() == 1
                ? FakeNode.answer(200, "", FakeAnswers.array(List.of(
                        FakeAnswers.item("b-1", FakeAnswers.applied("b-1", "a-1", 900), 200, false), BUSY_ITEM)))
                : FakeNode.answer(200, "", FakeAnswers.array(List.of(
                        FakeAnswers.item("b-2", FakeAnswers.applied("b-2", "a-2", 80), 200, false)))));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            List<BatchOutcome> outcomes = client.batch(List.of(new BatchItem("b-1", "a-1", TxType.DEBIT, 100),
                    new BatchItem("b-2", "a-2", TxType.CREDIT, 30)));

            assertTrue(outcomes.get(0).ok() && outcomes.get(1).ok(), outcomes.toString());
            assertEquals(80, outcomes.get(1).result().balance());
            assertEquals(2, node.requests.size());
            String again = node.requests.get(1).body();
            assertTrue(again.contains("\"b-2\"") && !again.contains("\"b-1\""), "only the undecided item: " + again);
        }
    }

    @Test
    void shouldEndABatchItemStillUndecidedAtTheEndOfTheBudgetAsUnknownNotRefused() throws Exception {
        try (FakeNode node = new FakeNode(request -> request.body().contains("\"b-1\"")
                ? FakeNode.answer(200, "", FakeAnswers.array(List.of(
                        FakeAnswers.item("b-1", FakeAnswers.applied("b-1", "a-1", 900), 200, false), BUSY_ITEM)))
                : FakeNode.answer(200, "", FakeAnswers.array(List.of(BUSY_ITEM))));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false)
                     .retryBudget(Duration.ofMillis(500)).build()) {
            List<BatchOutcome> outcomes = client.batch(List.of(new BatchItem("b-1", "a-1", TxType.DEBIT, 100),
                    new BatchItem("b-2", "a-2", TxType.CREDIT, 30)));

            assertTrue(outcomes.get(0).ok());
            assertTrue(outcomes.get(1).unknown(), outcomes.toString());
            assertEquals("b-2", assertInstanceOf(OutcomeUnknownException.class, outcomes.get(1).error()).txId());
            assertTrue(node.requests.size() >= 3, "sent again within the budget: " + node.requests.size());
        }
    }

    @Test
    void shouldFailAtOnceWhenTheClientIsClosed() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", FakeAnswers.applied("t-1", "a-1", 1)))) {
            PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build();
            client.close();
            long start = System.nanoTime();
            assertThrows(IllegalStateException.class, () -> client.post("a-1", TxType.CREDIT, 1, "t-1"));
            assertTrue(System.nanoTime() - start < 1_000_000_000L, "not retried until the budget ends");
            assertEquals(0, node.requests.size());
        }
    }

    @Test
    void shouldNameTheFieldsAtFaultInAnInvalidRequest() throws Exception {
        String invalid = "{\"type\":\"" + FakeAnswers.PROBLEMS + "invalid-request\",\"title\":\"Bad Request\","
                + "\"status\":400,\"detail\":\"The request has an invalid field.\",\"errors\":[{\"field\":\"amount\","
                + "\"message\":\"must be greater than or equal to 1\"}]}";
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(400, "", invalid));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            PartitaException e = assertThrows(PartitaException.class,
                    () -> client.post("a-1", TxType.CREDIT, -1, "t-1"));
            assertEquals(List.of(new PartitaException.FieldError("amount", "must be greater than or equal to 1")),
                    e.fieldErrors());
            assertTrue(e.getMessage().contains("amount: must be greater than or equal to 1"), e.getMessage());
        }
    }
}
