package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountFeature;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.partita.support.Problems.assertOnlyError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ?mode=locked} on transactions over HTTP, on a one-node cluster (CP in unsafe mode): the same script of
 * transactions on two twin accounts, one per mode, gets the same answers, balances and journal.
 */
@MicronautTest
class LockedModeHttpTest {

    @Inject
    Api api;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    AccountLocks locks;

    record Answer(int status, Map<String, Object> body, String replayed) {
    }

    private Answer post(String uri, Object body) {
        Api.Reply reply = api.post(uri, body);
        return new Answer(reply.status(), reply.map(), reply.headers().get("Idempotent-Replayed"));
    }

    private String open(long balance, long overdraft) {
        return api.openAccount("l-", Map.of("balance", balance, "overdraftLimit", overdraft));
    }

    /** Debits, credits, a rejection, retries of each, an id conflict, and a retry older than the recent list. */
    private List<Object> script(String account, String mode) {
        List<Object> seen = new ArrayList<>();
        String uri = "/accounts/" + account + "/transactions?mode=" + mode;
        seen.add(post(uri, tx("t-1", "DEBIT", 120)));
        seen.add(post(uri, tx("t-2", "DEBIT", 200)));
        seen.add(post(uri, tx("t-1", "DEBIT", 120)));
        seen.add(post(uri, tx("t-2", "DEBIT", 200)));
        seen.add(post(uri, tx("t-1", "CREDIT", 120)).status());
        for (int i = 0; i < 10; i++) {
            seen.add(post(uri, tx("c-" + i, "CREDIT", 7)));
        }
        seen.add(post(uri, tx("t-1", "DEBIT", 120)));
        seen.add(api.get("/accounts/" + account + "/transactions?limit=100").list().stream()
                .map(entry -> List.of(entry.get("txId"), entry.get("type"), entry.get("amount"),
                        entry.get("status"), entry.get("balanceAfter")))
                .toList());
        return seen;
    }

    private static Map<String, Object> tx(String txId, String type, long amount) {
        return Map.of("txId", txId, "type", type, "amount", amount);
    }

    @Test
    void shouldGiveTheSameAnswersBalancesAndJournalInBothModes() {
        String partitioned = open(200, 50);
        String locked = open(200, 50);
        List<Object> expected = script(partitioned, "partitioned");
        List<Object> actual = script(locked, "locked");

        assertEquals(expected.toString().replace(partitioned, "ID"), actual.toString().replace(locked, "ID"));
        Answer rejected = (Answer) actual.get(1);
        assertEquals(422, rejected.status());
        assertEquals("REJECTED", rejected.body().get("status"));
        assertEquals("true", ((Answer) actual.get(3)).replayed());
        assertEquals(409, actual.get(4));
        assertEquals("true", ((Answer) actual.get(15)).replayed());
        assertEquals(AccountFeature.accounts(hazelcast).get(partitioned).balance(), AccountFeature.accounts(hazelcast).get(locked)
                .balance());
        assertTrue(AccountFeature.accounts(hazelcast).get(locked).fence() > 0, "the locked account was written with a fence");
        assertEquals(0, AccountFeature.accounts(hazelcast).get(partitioned).fence());
    }

    @Test
    void shouldAnswerNotFoundInLockedModeWithoutCreatingALock() {
        String ghost = Api.uniqueId("ghost-");
        Answer answer = post("/accounts/" + ghost + "/transactions?mode=locked", tx("t-1", "DEBIT", 1));
        Answer transfer = post("/transfers?mode=locked", Map.of("txId", "x-1", "from", open(100, 0), "to", ghost,
                "amount", 1));

        assertEquals(404, answer.status());
        assertEquals(404, transfer.status());
        assertFalse(locks.hasProxy(ghost), "no lock for an unknown account");
    }

    @Test
    void shouldRefuseAnUnknownModeOnTransactions() {
        String account = open(100, 0);
        Api.Reply answer = api.post("/accounts/" + account + "/transactions?mode=optimistic", tx("t-1", "DEBIT", 1));

        assertOnlyError(answer, "mode", "must be partitioned or locked");
        assertEquals(100, AccountFeature.accounts(hazelcast).get(account).balance());
    }

    @Test
    void shouldReportUnsafeCpModeOnASingleDevNode() {
        Map<String, Object> cluster = api.get("/cluster").map();
        @SuppressWarnings("unchecked")
        Map<String, Object> cp = (Map<String, Object>) cluster.get("cp");

        assertEquals("UNSAFE", cp.get("mode"));
        assertEquals(0, cp.get("members"));
    }
}
