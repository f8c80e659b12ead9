package io.partita.transaction;

import io.micronaut.json.JsonMapper;
import io.partita.support.Api;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.UUID;

import static io.partita.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code POST /transactions/batch} on three nodes: every item answered in order, exactly as its single call. */
class BatchTest {

    static TestNodes nodes;
    static Api first;
    static Api second;

    @BeforeAll
    static void startNodes() {
        nodes = TestNodes.start(3);
        first = Api.of(nodes, 0);
        second = Api.of(nodes, 1);
    }

    @AfterAll
    static void stopNodes() {
        nodes.close();
    }

    @Test
    void shouldAnswerEveryItemInOrderExactlyAsItsSingleCallWould() {
        String run = UUID.randomUUID().toString().substring(0, 6);
        int accounts = 20;
        for (int i = 0; i < accounts; i++) {
            assertEquals(201, first.post("/accounts", "{\"id\":\"" + run + "-" + i + "\",\"balance\":500}").status());
        }
        Random random = new Random(7);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            String account = run + "-" + random.nextInt(accounts);
            String type = random.nextBoolean() ? "DEBIT" : "CREDIT";
            int amount = 1 + random.nextInt(200);
            items.add(item("b-" + i, account, type, String.valueOf(amount)));
            if (i % 50 == 7) {
                items.add(item("b-" + i, account, type, String.valueOf(amount)));
            }
            if (i % 97 == 3) {
                items.add(item("b-" + i, account, type, String.valueOf(amount + 1)));
            }
        }
        items.add(item("b-x", run + "-nobody", "DEBIT", "1"));
        items.add(item("b y", run + "-1", "DEBIT", "1"));
        items.add(item("b-z", run + "-1", "DEBIT", "0"));

        Api.Reply batch = first.post("/transactions/batch", "[" + String.join(",", items) + "]");

        assertEquals(200, batch.status(), batch.toString());
        List<Map<String, Object>> answers = batch.list();
        assertEquals(items.size(), answers.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> answer = answers.get(i);
            Map<String, Object> item = parse(items.get(i));
            Api.Reply single = second.post("/accounts/" + item.get("accountId") + "/transactions",
                    "{\"txId\":\"" + item.get("txId") + "\",\"type\":\"" + item.get("type") + "\",\"amount\":"
                            + item.get("amount") + "}");
            assertEquals(single.status(), ((Number) answer.get("httpStatus")).intValue(), "item " + i + " " + answer);
            Map<String, Object> withoutBatchFields = new HashMap<>(answer);
            withoutBatchFields.remove("httpStatus");
            withoutBatchFields.remove("replayed");
            if (single.status() == 200 || single.status() == 422) {
                assertEquals(single.map(), withoutBatchFields, "item " + i);
            } else {
                assertEquals(single.map().get("status"), answer.get("status"), "item " + i);
                assertEquals(single.map().get("type"), answer.get("type"), "item " + i);
            }
        }
        for (int i = 0; i < accounts; i++) {
            String account = run + "-" + i;
            List<Map<String, Object>> journal = first.get("/accounts/" + account + "/transactions?limit=1000").list();
            long balance = 500;
            for (Map<String, Object> entry : journal) {
                if ("APPLIED".equals(entry.get("status"))) {
                    long amount = ((Number) entry.get("amount")).longValue();
                    balance += "DEBIT".equals(entry.get("type")) ? -amount : amount;
                }
            }
            assertEquals(balance, first.get("/accounts/" + account).number("balance"), account);
            assertTrue(balance >= 0, account);
        }
    }

    @Test
    void shouldApplyItemsOfOneAccountInBatchOrder() {
        String account = "order-" + UUID.randomUUID().toString().substring(0, 6);
        first.post("/accounts", "{\"id\":\"" + account + "\",\"balance\":0}");
        StringJoiner body = new StringJoiner(",", "[", "]");
        body.add(item("o-1", account, "CREDIT", "100"));
        body.add(item("o-2", account, "DEBIT", "100"));
        body.add(item("o-3", account, "DEBIT", "1"));
        body.add(item("o-4", account, "CREDIT", "5"));

        List<Map<String, Object>> answers = first.post("/transactions/batch", body.toString()).list();

        assertEquals(List.of("APPLIED", "APPLIED", "REJECTED", "APPLIED"),
                answers.stream().map(a -> a.get("status")).toList());
        assertEquals(List.of(100L, 0L, 0L, 5L),
                answers.stream().map(a -> ((Number) a.get("balance")).longValue()).toList());
        assertNull(answers.get(0).get("replayed"));
    }

    @Test
    void shouldRefuseABatchThatIsTooLargeOrNotAnArrayAndChangeNothing() {
        String account = "big-" + UUID.randomUUID().toString().substring(0, 6);
        first.post("/accounts", "{\"id\":\"" + account + "\",\"balance\":0}");
        StringJoiner body = new StringJoiner(",", "[", "]");
        for (int i = 0; i <= BatchController.MAX_ITEMS; i++) {
            body.add(item("t" + i, account, "CREDIT", "1"));
        }
        assertProblem(first.post("/transactions/batch", body.toString()), 400);
        assertProblem(first.post("/transactions/batch", "{\"txId\":\"t\"}"), 400);
        assertProblem(first.post("/transactions/batch", "[{\"txId\":"), 400);
        assertProblem(first.post("/transactions/batch?mode=sideways", "[]"), 400);
        assertEquals(0, first.get("/accounts/" + account).number("version"));
    }

    @Test
    void shouldRefuseTheWholeBatchWhenAnItemHasAValueOfTheWrongJsonType() {
        String account = "shape-" + UUID.randomUUID().toString().substring(0, 6);
        first.post("/accounts", "{\"id\":\"" + account + "\",\"balance\":0}");
        for (String amount : List.of("\"5\"", "true", "1.5", "[5]")) {
            String body = "[" + item("s-1", account, "CREDIT", "5") + "," + item("s-2", account, "CREDIT", amount)
                    + "]";

            Api.Reply reply = first.post("/transactions/batch", body);

            assertProblem(reply, 400);
            assertEquals("amount", ((Map<?, ?>) ((List<?>) reply.map().get("errors")).get(0)).get("field"), amount);
        }
        assertEquals(0, first.get("/accounts/" + account).number("version"));
    }

    private static String item(String txId, String account, String type, String amount) {
        return "{\"txId\":\"" + txId + "\",\"accountId\":\"" + account + "\",\"type\":\"" + type + "\",\"amount\":"
                + amount + "}";
    }

    private static Map<String, Object> parse(String item) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = nodes.servers().get(0).getApplicationContext().getBean(JsonMapper.class)
                    .readValue(item, Map.class);
            return map;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
