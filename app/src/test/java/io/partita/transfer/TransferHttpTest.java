package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.JournalRecord;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.PartitaProperties.ProcessingMode;
import io.partita.transaction.TransactionService;
import io.partita.transfer.TransferFeature;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /transfers} over HTTP on a one-node cluster (CP in unsafe mode), in both modes: answers, replays,
 * conflicts, and every bad input answered with a problem and no change.
 */
@MicronautTest
class TransferHttpTest {

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    TransferService transfers;

    @Inject
    AccountService accounts;

    @Inject
    TransactionService transactions;

    record Answer(int status, Map<String, Object> body, HttpResponse<?> response) {
        String header(String name) {
            return response.getHeaders().get(name);
        }
    }

    private Answer post(String uri, Object body) {
        try {
            HttpResponse<Map<String, Object>> response = http.toBlocking()
                    .exchange(HttpRequest.POST(uri, body), Argument.mapOf(String.class, Object.class));
            return new Answer(response.code(), response.body(), response);
        } catch (HttpClientResponseException e) {
            return new Answer(e.code(), e.getResponse().getBody(Argument.mapOf(String.class, Object.class))
                    .orElse(Map.of()), e.getResponse());
        }
    }

    private Map<String, Object> get(String uri) {
        return http.toBlocking().retrieve(HttpRequest.GET(uri), Argument.mapOf(String.class, Object.class));
    }

    private String open(long balance, long overdraft) {
        String id = "a-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(201, post("/accounts", Map.of("id", id, "balance", balance, "overdraftLimit", overdraft))
                .status());
        return id;
    }

    private long balance(String id) {
        return ((Number) get("/accounts/" + id).get("balance")).longValue();
    }

    private static Map<String, Object> transfer(String txId, String from, String to, Object amount) {
        return Map.of("txId", txId, "from", from, "to", to, "amount", amount);
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldMoveMoneyAndReplayTheFirstAnswerOnARetry(String mode) {
        String from = open(1_000, 0);
        String to = open(10, 0);
        Answer first = post("/transfers?mode=" + mode, transfer("x-1", from, to, 300));

        assertEquals(200, first.status());
        assertEquals("COMPLETED", first.body().get("status"));
        assertEquals(700, ((Number) first.body().get("fromBalance")).longValue());
        assertEquals(310, ((Number) first.body().get("toBalance")).longValue());
        assertNull(first.header("Idempotent-Replayed"));

        Answer retry = post("/transfers?mode=" + mode, transfer("x-1", from, to, 300));
        assertEquals(200, retry.status());
        assertEquals(first.body(), retry.body());
        assertEquals("true", retry.header("Idempotent-Replayed"));
        assertEquals(700, balance(from));
        assertEquals(310, balance(to));
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldRejectATransferBeyondTheOverdraftLimitAndReplayTheRejection(String mode) {
        String from = open(100, 50);
        String to = open(0, 0);
        Answer rejected = post("/transfers?mode=" + mode, transfer("x-1", from, to, 151));

        assertEquals(422, rejected.status());
        assertEquals("application/problem+json", rejected.response().getContentType().orElseThrow().toString());
        assertEquals("REJECTED", rejected.body().get("status"));
        assertEquals("INSUFFICIENT_FUNDS", rejected.body().get("reason"));
        assertEquals("Insufficient funds", rejected.body().get("title"));
        assertTrue(rejected.body().get("type").toString().endsWith("/insufficient-funds"));
        assertEquals(100, ((Number) rejected.body().get("fromBalance")).longValue());
        assertFalse(rejected.body().containsKey("toBalance"));

        assertEquals(200, post("/accounts/" + from + "/transactions",
                Map.of("txId", "t-1", "type", "CREDIT", "amount", 1_000)).status());
        Answer retry = post("/transfers?mode=" + mode, transfer("x-1", from, to, 151));
        assertEquals(422, retry.status());
        assertEquals(rejected.body(), retry.body());
        assertEquals("true", retry.header("Idempotent-Replayed"));
        assertEquals(1_100, balance(from));
        assertEquals(0, balance(to));
    }

    @Test
    void shouldReturnTheAmountWhenTheDestinationWouldPassTheBalanceLimit() {
        String from = open(1_000, 0);
        String to = open(1_000_000_000_000_000_000L, 0);
        Answer rejected = post("/transfers", transfer("x-1", from, to, 5));

        assertEquals(422, rejected.status());
        assertEquals("BALANCE_LIMIT", rejected.body().get("reason"));
        assertEquals(1_000, ((Number) rejected.body().get("fromBalance")).longValue());
        assertEquals(1_000, balance(from));
        List<Map<String, Object>> journal = http.toBlocking().retrieve(
                HttpRequest.GET("/accounts/" + from + "/transactions"), Argument.listOf(Argument.mapOf(String.class,
                        Object.class)));
        assertEquals(List.of("TRANSFER_REFUND", "TRANSFER_OUT"), journal.stream().map(e -> e.get("type")).toList());
    }

    @Test
    void shouldAnswerConflictWhenATransferIdComesBackWithAnotherPayload() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        String other = open(0, 0);
        assertEquals(200, post("/transfers", transfer("x-1", from, to, 10)).status());

        Answer amount = post("/transfers", transfer("x-1", from, to, 11));
        Answer destination = post("/transfers?mode=locked", transfer("x-1", from, other, 10));
        assertEquals(409, amount.status());
        assertEquals(409, destination.status());
        assertTrue(amount.body().get("detail").toString().contains("x-1"));
        assertEquals(990, balance(from));
        assertEquals(0, balance(other));
    }

    @Test
    void shouldRefuseATransferFromAnAccountToItself() {
        String account = open(1_000, 0);
        Answer answer = post("/transfers", transfer("x-1", account, account, 10));

        assertEquals(400, answer.status());
        assertEquals(List.of(Map.of("field", "to", "message", "must be another account than from")),
                answer.body().get("errors"));
        assertEquals(1_000, balance(account));
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldAnswerNotFoundForAnUnknownAccountOnEitherSide(String mode) {
        String account = open(1_000, 0);
        Answer unknownTo = post("/transfers?mode=" + mode, transfer("x-1", account, "nobody", 10));
        Answer unknownFrom = post("/transfers?mode=" + mode, transfer("x-2", "nobody", account, 10));

        assertEquals(404, unknownTo.status());
        assertTrue(unknownTo.body().get("detail").toString().contains("'nobody'"));
        assertEquals(404, unknownFrom.status());
        assertEquals(1_000, balance(account));
        // Nothing was recorded: once the account exists, the same id is a new transfer.
        String nobody = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(201, post("/accounts", Map.of("id", nobody)).status());
        assertEquals(200, post("/transfers?mode=" + mode, transfer("x-1", account, nobody, 10)).status());
    }

    @Test
    void shouldNameEveryInvalidFieldAndChangeNothing() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        assertInvalid(Map.of("from", from, "to", to, "amount", 1), "txId");
        assertInvalid(transfer("bad id!", from, to, 1), "txId");
        assertInvalid(transfer("x", "", to, 1), "from");
        assertInvalid(Map.of("txId", "x", "from", from, "amount", 1), "to");
        assertInvalid(transfer("x", from, to, 0), "amount");
        assertInvalid(transfer("x", from, to, -5), "amount");
        assertInvalid(transfer("x", from, to, 1.5), "amount");
        assertInvalid(transfer("x", from, to, 1_000_000_000_000_001L), "amount");
        assertInvalid(transfer("x", from, to, "7"), "amount");
        assertInvalid(transfer("x", from, to, true), "amount");
        assertInvalid(transfer("x", from, to, List.of(7)), "amount");
        assertInvalid(Map.of("txId", 12, "from", from, "to", to, "amount", 1), "txId");
        assertInvalid(Map.of("txId", "x", "from", from, "to", List.of(to), "amount", 1), "to");
        assertEquals(1_000, balance(from));
        assertEquals(0, balance(to));
    }

    private void assertInvalid(Map<String, Object> body, String field) {
        Answer answer = post("/transfers", body);
        assertEquals(400, answer.status(), body.toString());
        assertEquals("application/problem+json", answer.response().getContentType().orElseThrow().toString());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> errors = (List<Map<String, Object>>) answer.body().get("errors");
        assertTrue(errors != null && errors.stream().anyMatch(error -> field.equals(error.get("field"))),
                body + " answered " + answer.body());
        assertFalse(answer.body().toString().contains("Exception"), answer.body().toString());
    }

    @Test
    void shouldRefuseAMalformedBodyAndAnUnknownMode() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        Answer malformed = post("/transfers", "{\"txId\":");
        Answer wrongType = post("/transfers", transfer("x-1", from, to, "ten"));
        Answer mode = post("/transfers?mode=eventually", transfer("x-1", from, to, 1));

        assertEquals(400, malformed.status());
        assertEquals(400, wrongType.status());
        assertEquals(400, mode.status());
        assertEquals(List.of(Map.of("field", "mode", "message", "must be partitioned or locked")),
                mode.body().get("errors"));
        assertEquals(1_000, balance(from));
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldAnswerConflictNotNotFoundWhenACompletedTransferIsRetriedTowardsAnUnknownAccount(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        assertEquals(200, post("/transfers?mode=" + mode, transfer("x-1", from, to, 50)).status());

        for (String retryMode : List.of("partitioned", "locked")) {
            Answer retry = post("/transfers?mode=" + retryMode, transfer("x-1", from, "nope", 50));
            assertEquals(409, retry.status(), mode + " then " + retryMode + ": " + retry.body());
            assertEquals("https://partita.dev/problems/txid-conflict", retry.body().get("type"));
        }
        assertEquals(950, balance(from));
        assertEquals(50, balance(to));
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldRejectWithConflictAndMoveNothingWhenTheDebitIdIsTakenByAnEarlierTransfer(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        // An earlier transfer x-1 from this account, with another amount, whose record is gone and whose debit is not.
        journal(new JournalEntry(from, "transfer-out/x-1", TxType.TRANSFER_OUT, 70, TxStatus.APPLIED, 930, 1L, 1,
                "elsewhere"));

        Answer answer = post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));
        Answer retry = post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));

        assertEquals(409, answer.status(), answer.body().toString());
        assertEquals(409, retry.status());
        assertEquals(1_000, balance(from));
        assertEquals(0, balance(to));
        Transfer recorded = TransferFeature.transfers(hazelcast).get(new TransferKey(from, "x-1"));
        assertEquals(TransferState.REJECTED, recorded.state());
        assertEquals(Transfer.ID_CONFLICT, recorded.reason());
    }

    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    void shouldReturnTheAmountAndAnswerConflictWhenTheCreditIdIsTakenByAnEarlierTransfer(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        journal(new JournalEntry(to, "transfer-in/" + from + "/x-1", TxType.TRANSFER_IN, 70, TxStatus.APPLIED, 70,
                1L, 1, from));

        Answer answer = post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));

        assertEquals(409, answer.status(), answer.body().toString());
        assertFalse(answer.body().toString().contains("Exception"), answer.body().toString());
        assertEquals(1_000, balance(from));
        assertEquals(0, balance(to));
        assertEquals(List.of("TRANSFER_REFUND", "TRANSFER_OUT"), types(from));
        Transfer recorded = TransferFeature.transfers(hazelcast).get(new TransferKey(from, "x-1"));
        assertEquals(TransferState.REJECTED, recorded.state());
        assertEquals(Transfer.ID_CONFLICT, recorded.reason());
        assertEquals(409, post("/transfers?mode=" + mode, transfer("x-1", from, to, 50)).status());
    }

    @Test
    void shouldRecoverATransferWhoseDestinationIsGoneByReturningTheAmount() {
        String from = open(1_000, 0);
        String gone = "gone-" + UUID.randomUUID().toString().substring(0, 8);
        // A debited transfer whose destination no longer exists (lost with the data of two members, say).
        Transfer pending = Transfer.begin(new TransferRequest("x-1", from, gone, 300), 1L, "a-member-that-died");
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new BeginTransfer(pending));
        transactions.apply(from, pending.debit(), ProcessingMode.PARTITIONED).toCompletableFuture().join();
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new AdvanceTransfer(pending.debited(700),
                60_000));

        Transfer recovered = transfers.recover(pending.key());

        assertEquals(TransferState.REJECTED, recovered.state());
        assertEquals(Transfer.DESTINATION_NOT_FOUND, recovered.reason());
        assertEquals(1_000, balance(from));
        Answer retry = post("/transfers", transfer("x-1", from, gone, 300));
        assertEquals(404, retry.status());
        assertTrue(retry.body().get("detail").toString().contains(gone));
    }

    @Test
    void shouldKeepUnfinishedRecordsForeverAndFinishedOnesForTheJournalRetentionAndAnHour() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        Transfer pending = Transfer.begin(new TransferRequest("x-2", from, to, 1), System.currentTimeMillis(),
                "a-member-that-died");
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new BeginTransfer(pending));
        long unfinished = TransferFeature.transfers(hazelcast).getEntryView(pending.key()).getExpirationTime();
        assertEquals(200, post("/transfers", transfer("x-1", from, to, 10)).status());

        long finished = TransferFeature.transfers(hazelcast).getEntryView(new TransferKey(from, "x-1")).getTtl();

        assertEquals(Long.MAX_VALUE, unfinished);
        assertEquals(Duration.ofHours(25).toMillis(), finished);
    }

    private void journal(JournalEntry entry) {
        AccountFeature.journal(hazelcast).set(entry.key(), JournalRecord.of(entry));
    }

    private List<Object> types(String account) {
        return http.toBlocking().retrieve(HttpRequest.GET("/accounts/" + account + "/transactions"),
                Argument.listOf(Argument.mapOf(String.class, Object.class))).stream()
                .map(entry -> entry.get("type")).toList();
    }
}
