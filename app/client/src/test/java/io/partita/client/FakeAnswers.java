package io.partita.client;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * The bodies a {@link FakeNode} answers with, shaped as a node's (app/README.md, "The API in brief"): single
 * transactions, batches and their items, problems, and the partition table. Also reads what the client sent.
 */
final class FakeAnswers {

    static final String PROBLEMS = "https://partita.dev/problems/";

    private FakeAnswers() {
    }

    static boolean isBatch(FakeNode.Request request) {
        return request.line().startsWith("POST /transactions/batch ");
    }

    static boolean isSingle(FakeNode.Request request) {
        return request.line().startsWith("POST /accounts/") && request.line().contains("/transactions ");
    }

    /** The account of a single transaction, from its path. */
    static String accountOf(FakeNode.Request request) {
        String path = request.line().split(" ")[1];
        return URLDecoder.decode(path.substring("/accounts/".length(), path.lastIndexOf("/transactions")),
                StandardCharsets.UTF_8);
    }

    /** A single transaction's body ({@code txId}, {@code type}, {@code amount}). */
    static Map<String, Object> single(FakeNode.Request request) {
        return Json.object(request.body());
    }

    /** The items of a batch, each {@code txId}, {@code accountId}, {@code type}, {@code amount}. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> items(FakeNode.Request request) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (Object item : (List<Object>) Json.parse(request.body())) {
            items.add((Map<String, Object>) item);
        }
        return items;
    }

    static List<String> txIds(FakeNode.Request request) {
        return isBatch(request) ? items(request).stream().map(item -> (String) item.get("txId")).toList()
                : List.of((String) single(request).get("txId"));
    }

    static String applied(String txId, String accountId, long balance) {
        return "{\"txId\":" + Json.quote(txId) + ",\"accountId\":" + Json.quote(accountId)
                + ",\"status\":\"APPLIED\",\"balance\":" + balance + "}";
    }

    /** A 422 body: a rejection is a problem that carries the transaction's own status. */
    static String rejected(String txId, String accountId, long balance) {
        return "{\"txId\":" + Json.quote(txId) + ",\"accountId\":" + Json.quote(accountId)
                + ",\"status\":\"REJECTED\",\"balance\":" + balance + ",\"type\":\"" + PROBLEMS
                + "insufficient-funds\",\"title\":\"Insufficient funds\",\"detail\":\"The debit would take the balance "
                + "below the overdraft limit.\",\"reason\":\"INSUFFICIENT_FUNDS\"}";
    }

    static String problem(int status, String type) {
        return "{\"type\":\"" + PROBLEMS + type + "\",\"title\":\"" + type + "\",\"status\":" + status
                + ",\"detail\":\"scripted\"}";
    }

    /** A batch item: the single call's body plus {@code httpStatus}, and {@code replayed} where it would be sent. */
    static String item(String txId, String singleBody, int status, boolean replayed) {
        Map<String, Object> fields = Json.object(singleBody);
        StringBuilder item = new StringBuilder(singleBody.substring(0, singleBody.length() - 1));
        if (!fields.containsKey("txId")) {
            item.append(",\"txId\":").append(Json.quote(txId));
        }
        item.append(",\"httpStatus\":").append(status);
        if (replayed) {
            item.append(",\"replayed\":true");
        }
        return item.append('}').toString();
    }

    static String array(List<String> elements) {
        return "[" + String.join(",", elements) + "]";
    }

    /**
     * {@code GET /cluster} of members {@code m0}, {@code m1}, ... at {@code urls}, 271 partitions; or
     * {@code GET /cluster/partitions} with partition {@code p} owned by member {@code owner(p)}; else null.
     */
    static String table(FakeNode.Request request, List<String> urls, IntUnaryOperator owner) {
        if (request.line().startsWith("GET /cluster ")) {
            List<String> members = new ArrayList<>();
            for (int i = 0; i < urls.size(); i++) {
                members.add("{\"address\":\"m" + i + "\",\"httpUrl\":\"" + URI.create(urls.get(i)) + "\"}");
            }
            return FakeNode.answer(200, "", "{\"partitionCount\":271,\"members\":" + array(members) + "}");
        }
        if (request.line().startsWith("GET /cluster/partitions ")) {
            List<String> partitions = new ArrayList<>();
            for (int p = 0; p < 271; p++) {
                partitions.add("{\"id\":" + p + ",\"owner\":\"m" + owner.applyAsInt(p) + "\"}");
            }
            return FakeNode.answer(200, "", array(partitions));
        }
        return null;
    }
}
