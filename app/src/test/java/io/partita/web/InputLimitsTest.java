package io.partita.web;

import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The input bounds of issue 19, sent over a plain socket as a hostile client would send them: a body limit per route
 * (by Content-Length and chunked), 414 and 431 for an over-long request line and headers, 415 for a body that is not
 * declared JSON, Jackson's read limits, and a batch counted while it is read. Every refusal is problem+json with
 * nothing internal in it, and changes nothing.
 */
@MicronautTest
class InputLimitsTest {

    private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");
    private static final int SMALL_LIMIT = 16_384;

    @Inject
    EmbeddedServer server;

    @Inject
    JsonMapper json;

    private RawHttp http;
    private String id;

    @BeforeEach
    void setUp() {
        http = new RawHttp(server.getURL());
        id = "lim-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void shouldRefuseASingleCallBodyPastItsRouteLimitByContentLengthOrChunkedAndOpenNothing() {
        byte[] tooLarge = padded("{\"id\":\"" + id + "\"}", SMALL_LIMIT + 1);

        assertProblem(http.send("POST", "/accounts", JSON, tooLarge), 413);
        assertProblem(http.sendChunked("POST", "/accounts", JSON, tooLarge, 1000), 413);
        // Refused on its headers: the gigabyte it announces is never sent, and never waited for.
        assertProblem(http.send("POST", "/transfers", Map.of("Content-Type", "application/json",
                "Content-Length", "1000000000"), new byte[0]), 413);
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    @Test
    void shouldServeBodiesUpToTheLimitWhetherSentWholeOrChunked() {
        RawHttp.Answer whole = http.send("POST", "/accounts", JSON, padded("{\"id\":\"" + id + "-w\"}", SMALL_LIMIT));
        RawHttp.Answer chunked = http.sendChunked("POST", "/accounts", JSON,
                padded("{\"id\":\"" + id + "-c\",\"balance\":5}", SMALL_LIMIT), 700);

        assertEquals(201, whole.status(), whole.toString());
        assertEquals(201, chunked.status(), chunked.toString());
        assertTrue(http.send("GET", "/accounts/" + id + "-c", Map.of(), null).body().contains("\"balance\":5"));
    }

    @Test
    void shouldLetABatchAndASqlStatementCarryMoreThanASingleCall() {
        http.send("POST", "/accounts", JSON, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
        StringJoiner batch = new StringJoiner(",", "[", "]");
        for (int i = 0; i < 400; i++) {
            batch.add("{\"txId\":\"b-" + i + "\",\"accountId\":\"" + id + "\",\"type\":\"CREDIT\",\"amount\":1}");
        }
        byte[] batchBody = batch.toString().getBytes(StandardCharsets.UTF_8);
        assertTrue(batchBody.length > SMALL_LIMIT);

        RawHttp.Answer batchAnswer = http.sendChunked("POST", "/transactions/batch", JSON, batchBody, 4096);
        RawHttp.Answer sql = http.send("POST", "/sql", JSON, padded(
                "{\"sql\":\"SELECT id FROM accounts WHERE id = ?\",\"params\":[\"" + id + "\"]}", 40_000));

        assertEquals(200, batchAnswer.status(), batchAnswer.toString());
        assertTrue(http.send("GET", "/accounts/" + id, Map.of(), null).body().contains("\"balance\":400"));
        assertEquals(200, sql.status(), sql.toString());
    }

    @Test
    void shouldAnswer414ForAnOverLongRequestLineAnd431ForOverLargeHeaders() {
        String longPath = "/accounts/" + "a".repeat(5000);

        assertProblem(http.send("GET", longPath, Map.of(), null), 414);
        assertProblem(http.send("GET", "/cluster", Map.of("X-Filler", "x".repeat(9000)), null), 431);
        assertProblem(http.send("POST", "/accounts?" + "q=1&".repeat(1200), JSON,
                ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8)), 414);
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    /** A target that is not a valid URI: 400, saying so rather than blaming a body (an open node; see ApiSecurityTest). */
    @Test
    void shouldAnswer400ToATargetThatIsNotAUri() {
        for (String target : List.of("/accounts/%zz", "/accounts/" + id + "/transactions?limit=%zz", "/%")) {
            RawHttp.Answer answer = http.send("GET", target, Map.of(), null);
            assertProblem(answer, 400);
            assertTrue(answer.body().contains("not a valid URI"), answer.toString());
        }
        assertProblem(http.send("POST", "/accounts/%zz", JSON,
                ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8)), 400);
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    /**
     * An HTTP/1.1 request without exactly one Host header is answered 400 (RFC 9112), and a method HTTP does not define
     * is refused 405 without the name Micronaut gives it inside.
     */
    @Test
    void shouldAnswer400ToAnHttp11RequestWithoutExactlyOneHostAnd405ToAnUnknownMethod() {
        http.send("POST", "/accounts", JSON, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
        String target = "/accounts/" + id;
        String debit = "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":1}";
        for (String head : List.of("GET " + target + " HTTP/1.1\r\nConnection: close\r\n\r\n",
                "GET " + target + " HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
                "POST " + target + "/transactions HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: "
                        + debit.length() + "\r\nConnection: close\r\n\r\n" + debit)) {
            RawHttp.Answer answer = http.exchange(head.getBytes(StandardCharsets.ISO_8859_1));
            assertProblem(answer, 400);
            assertTrue(answer.body().contains("exactly one Host header"), answer.toString());
        }
        RawHttp.Answer read = http.send("GET", target, Map.of(), null);
        assertEquals(200, read.status(), read.toString());
        assertTrue(read.body().contains("\"version\":0"), "the refused debit changed nothing: " + read);

        RawHttp.Answer unknown = http.send("FOO", target, Map.of(), null);
        assertProblem(unknown, 405);
        assertFalse(unknown.body().contains("CUSTOM"), unknown.toString());
    }

    @Test
    void shouldAnswer415ToAJsonRouteWithoutAJsonContentType() {
        byte[] account = ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
        for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of("Content-Type", "text/plain"),
                Map.of("Content-Type", "application/xml"),
                Map.of("Content-Type", "application/x-www-form-urlencoded"))) {
            assertProblem(http.send("POST", "/accounts", headers, account), 415);
            assertProblem(http.send("POST", "/accounts/" + id + "/transactions", headers, account), 415);
            assertProblem(http.send("POST", "/transfers", headers, account), 415);
            assertProblem(http.send("POST", "/transactions/batch", headers, account), 415);
            assertProblem(http.send("POST", "/jobs", headers, account), 415);
            assertProblem(http.send("PUT", "/schedules/s-" + id, headers, account), 415);
            assertProblem(http.send("POST", "/sql", headers, account), 415);
        }
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    @Test
    void shouldRefuseCompressedOrTransferCodedBodiesAndAnswerEveryBareErrorAsAProblem() {
        byte[] account = ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);

        assertProblem(http.send("POST", "/accounts", Map.of("Content-Type", "application/json",
                "Content-Encoding", "gzip"), account), 415);
        assertProblem(http.send("POST", "/transactions/batch", Map.of("Content-Type", "application/json",
                "Content-Encoding", "deflate"), account), 415);
        assertProblem(http.send("POST", "/accounts", Map.of("Content-Type", "application/json",
                "Transfer-Encoding", "gzip"), account), 400);
        // Micronaut's CORS filter answers a foreign origin with a bare 403; it gets a problem body here.
        assertProblem(http.send("POST", "/accounts", Map.of("Content-Type", "application/json",
                "Origin", "http://evil.example"), account), 403);
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    @Test
    void shouldRefuseJsonPastTheParsersDepthNumberAndStringBounds() throws IOException {
        String deep = "[".repeat(JsonLimits.MAX_DEPTH + 1) + "]".repeat(JsonLimits.MAX_DEPTH + 1);
        String fits = "[".repeat(JsonLimits.MAX_DEPTH) + "]".repeat(JsonLimits.MAX_DEPTH);
        json.readValue(fits, Argument.OBJECT_ARGUMENT);
        assertThrows(IOException.class, () -> json.readValue(deep, Argument.OBJECT_ARGUMENT));
        assertThrows(IOException.class, () -> json.readValue("1" + "0".repeat(JsonLimits.MAX_NUMBER_LENGTH),
                Argument.OBJECT_ARGUMENT));
        assertThrows(IOException.class, () -> json.readValue("\"" + "s".repeat(JsonLimits.MAX_STRING_LENGTH + 1)
                + "\"", Argument.OBJECT_ARGUMENT));

        assertProblem(http.send("POST", "/transactions/batch", JSON, deep.getBytes(StandardCharsets.UTF_8)), 400);
        assertProblem(http.send("POST", "/accounts", JSON, ("{\"id\":\"" + id + "\",\"balance\":1"
                + "0".repeat(JsonLimits.MAX_NUMBER_LENGTH) + "}").getBytes(StandardCharsets.UTF_8)), 400);
        assertProblem(http.send("POST", "/transactions/batch", JSON, ("[{\"txId\":\""
                + "s".repeat(JsonLimits.MAX_STRING_LENGTH + 1) + "\"}]").getBytes(StandardCharsets.UTF_8)), 400);
        assertProblem(http.send("POST", "/accounts", JSON, ("{\"id\":\"" + id + "\",\"id\":\"" + id + "-2\"}")
                .getBytes(StandardCharsets.UTF_8)), 400);
        assertEquals(404, http.send("GET", "/accounts/" + id, Map.of(), null).status());
    }

    @Test
    void shouldCountABatchPastItsMaximumWhileReadingItAndRunNoneOfIt() throws IOException {
        http.send("POST", "/accounts", JSON, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8));
        StringJoiner batch = new StringJoiner(",", "[", "]");
        batch.add("{\"txId\":\"first\",\"accountId\":\"" + id + "\",\"type\":\"CREDIT\",\"amount\":1}");
        for (int i = 1; i < 60_000; i++) {
            batch.add("{}");
        }

        RawHttp.Answer answer = http.send("POST", "/transactions/batch", JSON,
                batch.toString().getBytes(StandardCharsets.UTF_8));

        assertProblem(answer, 400);
        Map<String, Object> problem = json.readValue(answer.body(), Argument.mapOf(String.class, Object.class));
        assertEquals("A batch holds at most 10000 transactions; this one has 60000.", problem.get("detail"));
        assertTrue(http.send("GET", "/accounts/" + id, Map.of(), null).body().contains("\"version\":0"));
    }

    private static byte[] padded(String json, int size) {
        int close = json.lastIndexOf('}');
        return (json.substring(0, close) + " ".repeat(size - json.length()) + json.substring(close))
                .getBytes(StandardCharsets.UTF_8);
    }

    static void assertProblem(RawHttp.Answer answer, int status) {
        assertEquals(status, answer.status(), answer.toString());
        assertEquals("application/problem+json", answer.header("content-type"), answer.toString());
        assertTrue(answer.body().contains("\"status\":" + status), answer.toString());
        assertFalse(Leaks.found(answer.body()), answer.toString());
    }
}
