package io.partita.client;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the client sends for what a caller gives it, and what it answers for what a node leaves out: a txId made for
 * a caller who gives none, an id in a path as given (a space is not a plus sign), a blank id refused before any call,
 * and each batch outcome named by its item's txId even where the node's refusal does not repeat it.
 */
class RequestShapeTest {

    @Test
    void shouldMakeATxIdWhenTheCallerGivesNone() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", FakeAnswers.applied(
                (String) FakeAnswers.single(request).get("txId"), "a-1", 900)));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            TxResult result = client.post("a-1", TxType.DEBIT, 100, null);
            String sent = (String) FakeAnswers.single(node.requests.get(0)).get("txId");
            assertNotNull(sent);
            assertEquals(sent, result.txId());
            assertTrue(client.postAsync("a-1", TxType.CREDIT, 1, null).get().applied());
            assertNotNull(FakeAnswers.single(node.requests.get(1)).get("txId"));
        }
    }

    @Test
    void shouldSendAnIdInAPathAsGivenAndRefuseABlankOne() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(400, "", FakeAnswers.problem(400, "invalid")));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            assertThrows(PartitaException.class, () -> client.account("a b+c"));
            assertEquals("GET /accounts/a%20b%2Bc HTTP/1.1", node.requests.get(0).line());
            assertThrows(IllegalArgumentException.class, () -> client.account(""));
            assertEquals(1, node.requests.size(), "a blank id is refused before any call");
        }
    }

    @Test
    void shouldNameEachBatchOutcomeByItsItemsTxId() throws Exception {
        String notFound = "{\"type\":\"" + FakeAnswers.PROBLEMS + "not-found\",\"title\":\"Account not found\","
                + "\"status\":404,\"detail\":\"There is no account with id 'nobody'.\",\"httpStatus\":404}";
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", "["
                + FakeAnswers.item("b-1", FakeAnswers.applied("b-1", "a-1", 900), 200, false) + "," + notFound + "]"));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            List<BatchOutcome> outcomes = client.batch(List.of(new BatchItem("b-1", "a-1", TxType.DEBIT, 100),
                    new BatchItem("b-2", "nobody", TxType.DEBIT, 100)));
            assertEquals("b-1", outcomes.get(0).txId());
            assertEquals("b-2", outcomes.get(1).txId());
            assertEquals(404, outcomes.get(1).httpStatus());
            assertNull(outcomes.get(1).result());
            assertTrue(outcomes.get(1).error() instanceof NotFoundException, String.valueOf(outcomes.get(1)));
        }
    }
}
