package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.JournalRecord;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.support.Api;
import io.partita.transaction.TransactionService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.partita.support.Api.assertReplayOf;
import static io.partita.support.Problems.assertOnlyError;
import static io.partita.support.Problems.assertProblemNaming;
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

    /** A test run once in each processing mode, given as the {@code mode} query parameter's value. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest
    @ValueSource(strings = {"partitioned", "locked"})
    @interface InBothModes {
    }

    @Inject
    Api api;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    TransferService transfers;

    @Inject
    AccountService accounts;

    @Inject
    TransactionService transactions;

    private String open(long balance, long overdraft) {
        return api.openAccount("a-", Map.of("balance", balance, "overdraftLimit", overdraft));
    }

    private long balance(String id) {
        return api.get("/accounts/" + id).number("balance");
    }

    private void assertBalances(String one, long itsBalance, String other, long otherBalance) {
        assertEquals(itsBalance, balance(one));
        assertEquals(otherBalance, balance(other));
    }

    private static Map<String, Object> transfer(String txId, String from, String to, Object amount) {
        return Map.of("txId", txId, "from", from, "to", to, "amount", amount);
    }

    @InBothModes
    void shouldMoveMoneyAndReplayTheFirstAnswerOnARetry(String mode) {
        String from = open(1_000, 0);
        String to = open(10, 0);
        Api.Reply first = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 300));

        assertEquals(200, first.status());
        assertEquals("COMPLETED", first.map().get("status"));
        assertEquals(700, first.number("fromBalance"));
        assertEquals(310, first.number("toBalance"));
        assertNull(first.headers().get("Idempotent-Replayed"));

        Api.Reply retry = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 300));
        assertReplayOf(first, retry, 200);
        assertBalances(from, 700, to, 310);
    }

    /**
     * A finished transfer's record is not kept on disk, so after a restart of every node only its steps remain in the
     * accounts' journals: a retry still gets the first answer, as a replay, and moves nothing.
     */
    @InBothModes
    void shouldReplayAFinishedTransferWhoseRecordIsGone(String mode) {
        String from = open(1_000, 0);
        String to = open(10, 0);
        Api.Reply first = api.post("/transfers?mode=" + mode, transfer("x-gone", from, to, 300));
        assertEquals(200, first.status());

        TransferFeature.transfers(hazelcast).delete(new TransferKey(from, "x-gone"));
        Api.Reply retry = api.post("/transfers?mode=" + mode, transfer("x-gone", from, to, 300));

        assertReplayOf(first, retry, 200);
        assertBalances(from, 700, to, 310);
    }

    @InBothModes
    void shouldRejectATransferBeyondTheOverdraftLimitAndReplayTheRejection(String mode) {
        String from = open(100, 50);
        String to = open(0, 0);
        Api.Reply rejected = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 151));

        assertEquals(422, rejected.status());
        assertEquals("application/problem+json", rejected.contentType());
        assertEquals("REJECTED", rejected.map().get("status"));
        assertEquals("INSUFFICIENT_FUNDS", rejected.map().get("reason"));
        assertEquals("Insufficient funds", rejected.map().get("title"));
        assertTrue(rejected.map().get("type").toString().endsWith("/insufficient-funds"));
        assertEquals(100, rejected.number("fromBalance"));
        assertFalse(rejected.map().containsKey("toBalance"));

        assertEquals(200, api.post("/accounts/" + from + "/transactions",
                Map.of("txId", "t-1", "type", "CREDIT", "amount", 1_000)).status());
        Api.Reply retry = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 151));
        assertReplayOf(rejected, retry, 422);
        assertBalances(from, 1_100, to, 0);
    }

    @Test
    void shouldReturnTheAmountWhenTheDestinationWouldPassTheBalanceLimit() {
        String from = open(1_000, 0);
        String to = open(1_000_000_000_000_000_000L, 0);
        Api.Reply rejected = api.post("/transfers", transfer("x-1", from, to, 5));

        assertEquals(422, rejected.status());
        assertEquals("BALANCE_LIMIT", rejected.map().get("reason"));
        assertEquals(1_000, rejected.number("fromBalance"));
        assertEquals(1_000, balance(from));
        assertEquals(List.of("TRANSFER_REFUND", "TRANSFER_OUT"), types(from));
    }

    @Test
    void shouldAnswerConflictWhenATransferIdComesBackWithAnotherPayload() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        String other = open(0, 0);
        assertEquals(200, api.post("/transfers", transfer("x-1", from, to, 10)).status());

        Api.Reply amount = api.post("/transfers", transfer("x-1", from, to, 11));
        Api.Reply destination = api.post("/transfers?mode=locked", transfer("x-1", from, other, 10));
        assertEquals(409, amount.status());
        assertEquals(409, destination.status());
        assertTrue(amount.map().get("detail").toString().contains("x-1"));
        assertBalances(from, 990, other, 0);
    }

    @Test
    void shouldRefuseATransferFromAnAccountToItself() {
        String account = open(1_000, 0);
        Api.Reply answer = api.post("/transfers", transfer("x-1", account, account, 10));

        assertOnlyError(answer, "to", "must be another account than from");
        assertEquals(1_000, balance(account));
    }

    @InBothModes
    void shouldAnswerNotFoundForAnUnknownAccountOnEitherSide(String mode) {
        String account = open(1_000, 0);
        Api.Reply unknownTo = api.post("/transfers?mode=" + mode, transfer("x-1", account, "nobody", 10));
        Api.Reply unknownFrom = api.post("/transfers?mode=" + mode, transfer("x-2", "nobody", account, 10));

        assertEquals(404, unknownTo.status());
        assertTrue(unknownTo.map().get("detail").toString().contains("'nobody'"));
        assertEquals(404, unknownFrom.status());
        assertEquals(1_000, balance(account));
        // Nothing was recorded: once the account exists, the same id is a new transfer.
        String nobody = api.openAccount("nobody-", Map.of());
        assertEquals(200, api.post("/transfers?mode=" + mode, transfer("x-1", account, nobody, 10)).status());
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
        assertBalances(from, 1_000, to, 0);
    }

    private void assertInvalid(Map<String, Object> body, String field) {
        assertProblemNaming(api.post("/transfers", body), field, body);
    }

    @Test
    void shouldRefuseAMalformedBodyAndAnUnknownMode() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        Api.Reply malformed = api.post("/transfers", "{\"txId\":");
        Api.Reply wrongType = api.post("/transfers", transfer("x-1", from, to, "ten"));
        Api.Reply mode = api.post("/transfers?mode=eventually", transfer("x-1", from, to, 1));

        assertEquals(400, malformed.status());
        assertEquals(400, wrongType.status());
        assertOnlyError(mode, "mode", "must be partitioned or locked");
        assertEquals(1_000, balance(from));
    }

    @InBothModes
    void shouldAnswerConflictNotNotFoundWhenACompletedTransferIsRetriedTowardsAnUnknownAccount(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        assertEquals(200, api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 50)).status());

        for (String retryMode : List.of("partitioned", "locked")) {
            Api.Reply retry = api.post("/transfers?mode=" + retryMode, transfer("x-1", from, "nope", 50));
            assertEquals(409, retry.status(), mode + " then " + retryMode + ": " + retry.body());
            assertEquals("https://partita.dev/problems/txid-conflict", retry.map().get("type"));
        }
        assertBalances(from, 950, to, 50);
    }

    @InBothModes
    void shouldRejectWithConflictAndMoveNothingWhenTheDebitIdIsTakenByAnEarlierTransfer(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        // An earlier transfer x-1 from this account, with another amount, whose record is gone and whose debit is not.
        journal(new JournalEntry(from, "transfer-out/x-1", TxType.TRANSFER_OUT, 70, TxStatus.APPLIED, 930, 1L, 1,
                "elsewhere"));

        Api.Reply answer = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));
        Api.Reply retry = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));

        assertEquals(409, answer.status(), answer.body().toString());
        assertEquals(409, retry.status());
        assertBalances(from, 1_000, to, 0);
        Transfer recorded = TransferFeature.transfers(hazelcast).get(new TransferKey(from, "x-1"));
        assertEquals(TransferState.REJECTED, recorded.state());
        assertEquals(Transfer.ID_CONFLICT, recorded.reason());
    }

    @InBothModes
    void shouldReturnTheAmountAndAnswerConflictWhenTheCreditIdIsTakenByAnEarlierTransfer(String mode) {
        String from = open(1_000, 0);
        String to = open(0, 0);
        journal(new JournalEntry(to, "transfer-in/" + from + "/x-1", TxType.TRANSFER_IN, 70, TxStatus.APPLIED, 70,
                1L, 1, from));

        Api.Reply answer = api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 50));

        assertEquals(409, answer.status(), answer.body().toString());
        assertFalse(answer.body().toString().contains("Exception"), answer.body().toString());
        assertBalances(from, 1_000, to, 0);
        assertEquals(List.of("TRANSFER_REFUND", "TRANSFER_OUT"), types(from));
        Transfer recorded = TransferFeature.transfers(hazelcast).get(new TransferKey(from, "x-1"));
        assertEquals(TransferState.REJECTED, recorded.state());
        assertEquals(Transfer.ID_CONFLICT, recorded.reason());
        assertEquals(409, api.post("/transfers?mode=" + mode, transfer("x-1", from, to, 50)).status());
    }

    @Test
    void shouldRecoverATransferWhoseDestinationIsGoneByReturningTheAmount() {
        String from = open(1_000, 0);
        String gone = Api.uniqueId("gone-");
        // A debited transfer whose destination no longer exists (lost with the data of two members, say).
        Transfer pending = Transfer.begin(new TransferRequest("x-1", from, gone, 300), 1L, "a-member-that-died");
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new BeginTransfer(pending));
        transactions.apply(from, pending.debit(), ProcessingMode.PARTITIONED).toCompletableFuture().join();
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new AdvanceTransfer(pending.debited(700), 60_000));

        Transfer recovered = transfers.recover(pending.key());

        assertEquals(TransferState.REJECTED, recovered.state());
        assertEquals(Transfer.DESTINATION_NOT_FOUND, recovered.reason());
        assertEquals(1_000, balance(from));
        Api.Reply retry = api.post("/transfers", transfer("x-1", from, gone, 300));
        assertEquals(404, retry.status());
        assertTrue(retry.map().get("detail").toString().contains(gone));
    }

    @Test
    void shouldKeepUnfinishedRecordsForeverAndFinishedOnesForTheJournalRetentionAndAnHour() {
        String from = open(1_000, 0);
        String to = open(0, 0);
        Transfer pending = Transfer.begin(new TransferRequest("x-2", from, to, 1), System.currentTimeMillis(),
                "a-member-that-died");
        TransferFeature.transfers(hazelcast).executeOnKey(pending.key(), new BeginTransfer(pending));
        long unfinished = TransferFeature.transfers(hazelcast).getEntryView(pending.key()).getExpirationTime();
        assertEquals(200, api.post("/transfers", transfer("x-1", from, to, 10)).status());

        long finished = TransferFeature.transfers(hazelcast).getEntryView(new TransferKey(from, "x-1")).getTtl();

        assertEquals(Long.MAX_VALUE, unfinished);
        assertEquals(Duration.ofHours(25).toMillis(), finished);
    }

    private void journal(JournalEntry entry) {
        AccountFeature.journal(hazelcast).set(entry.key(), JournalRecord.of(entry));
    }

    private List<Object> types(String account) {
        return api.get("/accounts/" + account + "/transactions").list().stream()
                .map(entry -> entry.get("type")).toList();
    }
}
