package io.partita.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.partita.support.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load tool end to end against a fake node (the JDK's HTTP server on loopback): its exit status and that every
 * operation it sent is judged, whatever the node answered. The fake opens accounts and never applies anything, so
 * balances stay at their opening and journals stay empty; each test chooses how it answers transactions.
 */
class LoadToolTest {

    private HttpServer server;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @AfterEach
    void stopFakeNode() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void shouldExit2OnABadCommandLine() {
        assertEquals(2, LoadTool.run(new String[] {"--accounts", "10"}, out()));
        assertEquals(2, LoadTool.run(new String[] {"--targets", "http://x:1", "--duration", "soon"}, out()));
    }

    @Test
    void shouldExit2WhenNoAccountCanBeOpened() {
        int closed = Ports.free();

        int status = LoadTool.run(args("http://127.0.0.1:" + closed), out());

        assertEquals(2, status, printed::toString);
        assertTrue(printed.toString().contains("could not open"), printed::toString);
    }

    @Test
    void shouldFailAndExit1WhenTheNodeAnswers404ForAnAccountTheRunOpened() throws IOException {
        AtomicInteger sent = new AtomicInteger();
        int status = LoadTool.run(args(countingNode(sent, 404, "{\"title\":\"Account not found\"}")), out());

        assertEquals(1, status, printed::toString);
        assertTrue(sent.get() > 0);
        assertTrue(printed.toString().contains("FAIL: 0 acknowledged, 0 rejected, 0 unknown outcome (0 applied), "
                + sent.get() + " unexpected answer(s)"), printed::toString);
    }

    @Test
    void shouldJudgeEveryOperationWhoseAnswerTheToolCannotReadInsteadOfLosingIt() throws IOException {
        // Before: the parse error killed the worker thread and its operation was never recorded, so the check saw
        // only what it could not explain. Now each such operation is recorded and judged, and the workers go on.
        AtomicInteger sent = new AtomicInteger();
        int status = LoadTool.run(args(countingNode(sent, 200, "{\"balance\":\"not a number\"}")), out());

        assertEquals(1, status, printed::toString);
        assertTrue(sent.get() > 2, "both workers kept going after the first unreadable answer: " + sent.get());
        assertTrue(printed.toString().contains(sent.get() + " unexpected answer(s)"), printed::toString);
        assertFalse(printed.toString().contains("never sent"), printed::toString);
    }

    @Test
    void shouldExit1WhenTheFinalStateCannotBeReadAfterTheRunStarted() throws IOException {
        String url = fakeNode(path -> new Answer(503, "{}"), "this is not a journal");

        int status = LoadTool.run(args(url), out());

        assertEquals(1, status, printed::toString);
        assertTrue(printed.toString().contains("FAIL: the run could not be judged"), printed::toString);
    }

    private static String[] args(String target) {
        return new String[] {"--targets", target, "--accounts", "2", "--duration", "300ms", "--concurrency", "2",
            "--retries", "0%", "--transfers", "0%", "--attempt-timeout", "5s", "--give-up", "200ms", "--settle",
            "0s", "--prefix", "fake"};
    }

    private PrintStream out() {
        return new PrintStream(printed, true, StandardCharsets.UTF_8);
    }

    private record Answer(int status, String body) {
    }

    /**
     * Opens any account (201), answers transactions with {@code transactions}, reads an account as its opening
     * balance and its journal as {@code journal}.
     */
    /** A fake node that answers each transaction with {@code status} and {@code body}, counted in {@code sent}. */
    private String countingNode(AtomicInteger sent, int status, String body) throws IOException {
        return fakeNode(path -> {
            sent.incrementAndGet();
            return new Answer(status, body);
        }, "[]");
    }

    private String fakeNode(Function<String, Answer> transactions, String journal) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            boolean post = "POST".equals(exchange.getRequestMethod());
            exchange.getRequestBody().readAllBytes();
            if (post && path.equals("/accounts")) {
                reply(exchange, new Answer(201, "{}"));
            } else if (post) {
                reply(exchange, transactions.apply(path));
            } else if (path.endsWith("/transactions")) {
                reply(exchange, new Answer(200, journal));
            } else {
                reply(exchange, new Answer(200, "{\"balance\":100000}"));
            }
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void reply(HttpExchange exchange, Answer answer) throws IOException {
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), body.length);
        try (OutputStream stream = exchange.getResponseBody()) {
            stream.write(body);
        }
    }
}
