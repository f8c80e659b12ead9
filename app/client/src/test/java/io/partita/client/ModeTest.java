package io.partita.client;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code mode(...)} names the processing path on the routes that take one, and only there. */
class ModeTest {

    private static final String APPLIED =
            "{\"txId\":\"t-1\",\"accountId\":\"a-1\",\"status\":\"APPLIED\",\"balance\":900}";
    private static final String COMPLETED = "{\"txId\":\"t-2\",\"from\":\"a-1\",\"to\":\"a-2\",\"amount\":5,"
            + "\"status\":\"COMPLETED\",\"fromBalance\":895,\"toBalance\":5}";
    private static final String BATCH = "[{\"txId\":\"t-3\",\"accountId\":\"a-1\",\"status\":\"APPLIED\","
            + "\"balance\":894,\"httpStatus\":200}]";
    private static final String ACCOUNT = "{\"id\":\"a-1\",\"balance\":894,\"overdraftLimit\":0,\"version\":3,"
            + "\"partition\":7,\"owner\":\"127.0.0.1:5701\",\"mergeConflicts\":2}";

    @Test
    void shouldSendTheLockedModeOnTransactionsTransfersAndBatchesButNotOnReads() throws Exception {
        try (FakeNode node = new FakeNode(request -> {
            String line = request.line();
            if (line.startsWith("POST /transfers")) {
                return FakeNode.answer(200, "", COMPLETED);
            }
            if (line.startsWith("POST /transactions/batch")) {
                return FakeNode.answer(200, "", BATCH);
            }
            return FakeNode.answer(200, "", line.startsWith("GET") ? ACCOUNT : APPLIED);
        });
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false)
                     .mode(PartitaClient.Mode.LOCKED).build()) {
            client.post("a-1", TxType.DEBIT, 100, "t-1");
            client.transfer("t-2", "a-1", "a-2", 5);
            client.batch(List.of(new BatchItem("t-3", "a-1", TxType.DEBIT, 1)));
            Account account = client.account("a-1");

            assertEquals(List.of("POST /accounts/a-1/transactions?mode=locked HTTP/1.1",
                    "POST /transfers?mode=locked HTTP/1.1", "POST /transactions/batch?mode=locked HTTP/1.1",
                    "GET /accounts/a-1 HTTP/1.1"), node.requests.stream().map(FakeNode.Request::line).toList());
            assertEquals(2, account.mergeConflicts());
        }
    }

    @Test
    void shouldLeaveTheModeToTheNodeWhenNoneIsSet() throws Exception {
        try (FakeNode node = new FakeNode(request -> FakeNode.answer(200, "", APPLIED));
             PartitaClient client = PartitaClient.builder(node.url()).partitionAware(false).build()) {
            client.post("a-1", TxType.CREDIT, 100, "t-1");

            assertEquals("POST /accounts/a-1/transactions HTTP/1.1", node.requests.get(0).line());
        }
    }
}
