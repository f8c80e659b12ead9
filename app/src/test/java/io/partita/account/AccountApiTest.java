package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.node.ClusterClock;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.partita.support.Api.assertReplayOf;
import static io.partita.support.Problems.assertProblem;
import static io.partita.support.Problems.assertProblemNaming;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The account API (app/README.md, "The API in brief") on a one-node cluster: every endpoint, and every class of bad input. */
@MicronautTest
class AccountApiTest {

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    Api api;

    String id;

    @BeforeEach
    void openAnAccount() {
        id = api.openAccount("acc-", Map.of("balance", 1000, "overdraftLimit", 100));
    }

    private Api.Reply post(String txId, String type, long amount) {
        return api.post("/accounts/" + id + "/transactions",
                "{\"txId\":\"" + txId + "\",\"type\":\"" + type + "\",\"amount\":" + amount + "}");
    }

    private Api.Reply account() {
        return api.get("/accounts/" + id);
    }

    @Test
    void shouldOpenAnAccountAndShowWhereItLives() {
        Api.Reply reply = account();

        assertEquals(200, reply.status());
        assertEquals(id, reply.text("id"));
        assertEquals(1000, reply.number("balance"));
        assertEquals(100, reply.number("overdraftLimit"));
        assertEquals(0, reply.number("version"));
        long partition = reply.number("partition");
        assertTrue(partition >= 0 && partition < 271, "partition " + partition);
        assertNotNull(reply.text("owner"));
    }

    @Test
    void shouldDefaultTheOpeningBalanceAndOverdraftLimitToZero() {
        Api.Reply opened = api.post("/accounts", "{\"id\":\"" + id + "-z\"}");

        assertEquals(201, opened.status());
        assertEquals(0, opened.number("balance"));
        assertEquals(0, opened.number("overdraftLimit"));
    }

    @Test
    void shouldRefuseASecondAccountWithTheSameIdAndKeepTheFirst() {
        Api.Reply again = api.post("/accounts", "{\"id\":\"" + id + "\",\"balance\":5}");

        assertProblem(again, 409);
        assertEquals(1000, account().number("balance"));
    }

    @Test
    void shouldApplyADebitAndAnswerWithTheNewBalance() {
        Api.Reply reply = post("t-1", "DEBIT", 300);

        assertEquals(200, reply.status());
        assertEquals(Map.of("txId", "t-1", "accountId", id, "status", "APPLIED", "balance", 700), reply.map());
        assertNull(reply.headers().get("Idempotent-Replayed"));
        assertEquals(700, account().number("balance"));
    }

    @Test
    void shouldReplayTheFirstAnswerWhenATxIdIsRetried() {
        Api.Reply first = post("t-1", "CREDIT", 50);
        post("t-2", "DEBIT", 10);
        Api.Reply retry = post("t-1", "CREDIT", 50);

        assertReplayOf(first, retry, 200);
        assertAccount(1040, 2);
    }

    @Test
    void shouldRejectADebitPastTheOverdraftLimitAndReplayTheRejection() {
        Api.Reply rejected = post("t-1", "DEBIT", 1101);
        post("t-2", "CREDIT", 5000);
        Api.Reply retry = post("t-1", "DEBIT", 1101);

        assertEquals(422, rejected.status());
        assertTrue(rejected.contentType().startsWith("application/problem+json"), rejected.contentType());
        assertEquals("REJECTED", rejected.text("status"));
        assertEquals(1000, rejected.number("balance"));
        assertEquals("INSUFFICIENT_FUNDS", rejected.text("reason"));
        assertNotNull(rejected.text("type"));
        assertNotNull(rejected.text("title"));
        assertReplayOf(rejected, retry, 422);
        assertEquals(6000, account().number("balance"));
    }

    @Test
    void shouldAllowADebitDownToExactlyTheOverdraftLimit() {
        Api.Reply reply = post("t-1", "DEBIT", 1100);

        assertEquals(200, reply.status());
        assertEquals(-100, reply.number("balance"));
    }

    @Test
    void shouldAnswer409WhenATxIdComesBackWithAnotherPayloadAndChangeNothing() {
        post("t-1", "DEBIT", 10);
        Api.Reply otherAmount = post("t-1", "DEBIT", 11);
        Api.Reply otherType = post("t-1", "CREDIT", 10);

        assertProblem(otherAmount, 409);
        assertProblem(otherType, 409);
        assertEquals(990, account().number("balance"));
    }

    @Test
    void shouldAnswer404ForAnAccountThatDoesNotExist() {
        assertProblem(api.get("/accounts/nobody-" + id), 404);
        assertProblem(api.post("/accounts/nobody-" + id + "/transactions",
                "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":1}"), 404);
        assertProblem(api.get("/accounts/nobody-" + id + "/transactions"), 404);
    }

    @Test
    void shouldListTheJournalNewestFirstWithRejectionsAndHonourTheLimit() {
        post("t-1", "DEBIT", 100);
        post("t-2", "DEBIT", 5000);
        post("t-3", "CREDIT", 7);
        post("t-1", "DEBIT", 100);

        Api.Reply all = api.get("/accounts/" + id + "/transactions");
        Api.Reply two = api.get("/accounts/" + id + "/transactions?limit=2");

        assertEquals(200, all.status());
        assertEquals(List.of("t-3", "t-2", "t-1"), all.list().stream().map(e -> e.get("txId")).toList());
        Map<String, Object> rejected = all.list().get(1);
        assertEquals("REJECTED", rejected.get("status"));
        assertEquals(900, ((Number) rejected.get("balanceAfter")).longValue());
        assertEquals("DEBIT", rejected.get("type"));
        assertEquals(5000, ((Number) rejected.get("amount")).longValue());
        assertNotNull(rejected.get("at"));
        assertEquals(List.of("t-3", "t-2"), two.list().stream().map(e -> e.get("txId")).toList());
    }

    @Test
    void shouldPageTheJournalBeforeASeq() {
        post("t-1", "DEBIT", 100);
        post("t-2", "DEBIT", 5000);
        post("t-3", "CREDIT", 7);

        Api.Reply newest = api.get("/accounts/" + id + "/transactions?limit=2");
        long smallest = ((Number) newest.list().get(1).get("seq")).longValue();
        Api.Reply older = api.get("/accounts/" + id + "/transactions?limit=2&before=" + smallest);
        long oldest = ((Number) older.list().get(0).get("seq")).longValue();
        Api.Reply none = api.get("/accounts/" + id + "/transactions?limit=2&before=" + oldest);

        assertEquals(List.of("t-3", "t-2"), newest.list().stream().map(e -> e.get("txId")).toList());
        assertEquals(200, older.status(), older.toString());
        assertEquals(List.of("t-1"), older.list().stream().map(e -> e.get("txId")).toList());
        assertEquals(List.of(), none.list());
    }

    @Test
    void shouldServeALimitAboveTheMostItReturnsAsThatMost() {
        post("t-1", "CREDIT", 10);
        post("t-2", "DEBIT", 5);

        Api.Reply journal = api.get("/accounts/" + id + "/transactions?limit=50000");

        assertEquals(200, journal.status(), journal.toString());
        assertEquals(List.of("t-2", "t-1"), journal.list().stream().map(e -> e.get("txId")).toList());
    }

    @Test
    void shouldListAnEntryTheAccountsTailHoldsBeforeTheJournalDoes() {
        post("t-1", "CREDIT", 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> AccountFeature.journal(hazelcast).containsKey(new JournalKey(id,
                "t-1")));
        // What the journal writer has not copied yet (or a member that died with it queued): only in the tail.
        Account account = AccountFeature.accounts(hazelcast).get(id);
        // Stamped by the cluster's clock, as the node stamps requests: the journal's retention deletes older entries.
        Ledger.Decision held = Ledger.decide(id, account,
                TxRequest.of("t-held", TxType.DEBIT, 25, ClusterClock.now(hazelcast)), txId -> null);
        AccountFeature.accounts(hazelcast).set(id, held.apply(account));

        Api.Reply journal = api.get("/accounts/" + id + "/transactions");

        assertEquals(List.of("t-held", "t-1"), journal.list().stream().map(e -> e.get("txId")).toList());
        assertEquals(985, ((Number) journal.list().get(0).get("balanceAfter")).longValue());
    }

    @ParameterizedTest(name = "{0} -> 400 naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"type":"DEBIT","amount":1}                                    | txId
            {"txId":"","type":"DEBIT","amount":1}                          | txId
            {"txId":"has space","type":"DEBIT","amount":1}                 | txId
            {"txId":"x12345678901234567890123456789012345678901234567890123456789012345","type":"DEBIT","amount":1} | txId
            {"txId":"t-9","amount":1}                                      | type
            {"txId":"t-9","type":"debit","amount":1}                       | type
            {"txId":"t-9","type":"REFUND","amount":1}                      | type
            {"txId":"t-9","type":"DEBIT"}                                  | amount
            {"txId":"t-9","type":"DEBIT","amount":0}                       | amount
            {"txId":"t-9","type":"DEBIT","amount":-5}                      | amount
            {"txId":"t-9","type":"DEBIT","amount":1.5}                     | amount
            {"txId":"t-9","type":"DEBIT","amount":1000000000000001}        | amount
            {"txId":"t-9","type":"DEBIT","amount":99999999999999999999999} | amount
            {"txId":"t-9","type":"DEBIT","amount":"7"}                     | amount
            {"txId":"t-9","type":"DEBIT","amount":true}                    | amount
            {"txId":"t-9","type":"DEBIT","amount":[7]}                     | amount
            {"txId":"t-9","type":"DEBIT","amount":{"value":7}}             | amount
            {"txId":"t-9","type":"DEBIT","amount":1e2}                     | amount
            {"txId":"t-9","type":"DEBIT","amount":7.0}                     | amount
            {"txId":"t-9","type":"DEBIT","amount":1e400}                   | amount
            {"txId":123,"type":"DEBIT","amount":1}                         | txId
            {"txId":true,"type":"DEBIT","amount":1}                        | txId
            {"txId":"t-9","type":["DEBIT"],"amount":1}                     | type
            {"txId":"t-9","type":{},"amount":1}                            | type
            """)
    void shouldRefuseAnInvalidTransactionNamingTheFieldAndChangeNothing(String body, String field) {
        Api.Reply reply = api.post("/accounts/" + id + "/transactions", body);

        assertProblemNaming(reply, field);
        assertUnchanged();
    }

    @ParameterizedTest(name = "{0} -> 400 naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"balance":1}                               | id
            {"id":"a b"}                                | id
            {"id":"ok-1","balance":-1}                  | balance
            {"id":"ok-1","balance":2.5}                 | balance
            {"id":"ok-1","overdraftLimit":-1}           | overdraftLimit
            {"id":"ok-1","balance":1000000000000000001} | balance
            {"id":"ok-1","balance":"100"}               | balance
            {"id":"ok-1","balance":true}                | balance
            {"id":"ok-1","overdraftLimit":"5"}          | overdraftLimit
            {"id":"ok-1","balance":1e3}                 | balance
            {"id":5}                                    | id
            {"id":["ok-1"]}                             | id
            """)
    void shouldRefuseAnInvalidAccountNamingTheField(String body, String field) {
        Api.Reply reply = api.post("/accounts", body);

        assertProblemNaming(reply, field);
        assertProblem(api.get("/accounts/ok-1"), 404);
    }

    @Test
    void shouldRefuseAnInvalidIdInThePath() {
        Api.Reply reply = api.post("/accounts/bad%20id/transactions", "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":1}");

        assertProblem(reply, 400, "id");
    }

    @Test
    void shouldRefuseAnInvalidLimitOrModeAsQueryParameters() {
        assertProblem(api.get("/accounts/" + id + "/transactions?limit=0"), 400);
        assertProblem(api.get("/accounts/" + id + "/transactions?limit=-1"), 400);
        assertProblem(api.get("/accounts/" + id + "/transactions?limit=ten"), 400);
        assertProblem(api.get("/accounts/" + id + "/transactions?before=0"), 400);
        assertProblem(api.get("/accounts/" + id + "/transactions?before=soon"), 400);
        assertProblem(api.post("/accounts/" + id + "/transactions?mode=fast",
                "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":1}"), 400);
        assertUnchanged();
    }

    @Test
    void shouldAnswerMalformedJsonWith400() {
        assertProblem(api.post("/accounts/" + id + "/transactions", "{\"txId\":\"t-1\","), 400);
        assertProblem(api.post("/accounts/" + id + "/transactions", "[1,2]"), 400);
        assertProblem(api.post("/accounts/" + id + "/transactions", "null"), 400);
        assertUnchanged();
    }

    @Test
    void shouldAnswerAWrongMediaTypeWith415() {
        Api.Reply reply = api.send(HttpRequest.POST("/accounts/" + id + "/transactions", "txId=t-1")
                .contentType(MediaType.TEXT_PLAIN_TYPE));

        assertProblem(reply, 415);
        assertUnchanged();
    }

    @Test
    void shouldAnswerABodyTooLargeWith413() {
        String huge = "{\"id\":\"" + "a".repeat(5 * 1024 * 1024) + "\"}";
        assertProblem(api.post("/accounts", huge), 413);
    }

    @Test
    void shouldAnswerAnUnknownRouteAndAWrongMethodAsProblems() {
        assertProblem(api.get("/java.lang.Exception/io.partita.Secret"), 404);
        assertProblem(api.get("/nothing/here"), 404);
        assertProblem(api.delete("/accounts/" + id), 405);
    }

    @Test
    void shouldStayReadyAfterBadInput() {
        api.post("/accounts/" + id + "/transactions", "{broken");
        api.post("/accounts", "{\"id\":\"" + "x".repeat(100) + "\"}");

        Api.Reply readiness = api.get("/health/readiness");
        assertEquals(200, readiness.status());
        assertEquals("UP", readiness.text("status"));
        assertEquals(200, post("t-ok", "CREDIT", 1).status());
    }

    @Test
    void shouldDescribeTheClusterOfThisNode() {
        // Whether the cluster is safe is learned by a background thread twice a second (ClusterSafety).
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Boolean.TRUE.equals(api.get("/cluster").map().get("clusterSafe")));
        Api.Reply cluster = api.get("/cluster");

        assertEquals(200, cluster.status());
        assertEquals(271, cluster.number("partitionCount"));
        assertEquals(true, cluster.map().get("clusterSafe"));
        assertEquals(0, cluster.number("migrationsInFlight"));
        assertTrue(cluster.text("clusterName").startsWith("test-"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> members = (List<Map<String, Object>>) cluster.map().get("members");
        assertEquals(1, members.size());
        assertEquals(true, members.get(0).get("local"));
        assertEquals(true, members.get(0).get("oldest"));
        assertEquals(271, ((Number) members.get(0).get("ownedPartitions")).intValue());
        assertNotNull(members.get(0).get("uuid"));
        assertNotNull(members.get(0).get("address"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cp = (Map<String, Object>) cluster.map().get("cp");
        assertEquals("UNSAFE", cp.get("mode"));
        assertEquals(0, cp.get("members"));
    }

    private void assertUnchanged() {
        assertAccount(1000, 0);
    }

    private void assertAccount(long balance, long version) {
        Api.Reply account = account();
        assertEquals(balance, account.number("balance"));
        assertEquals(version, account.number("version"));
    }
}
