package io.partita.transaction;

import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import io.partita.web.ApiUsers;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/1.1 pipelining on the transaction route, as a lean client (or wrk with a pipelining script) uses it: many
 * requests written at once on one connection, before any answer is read, are each applied once and answered in the
 * order they were sent, on that one connection. Run as an open node runs ({@code java -jar} without credentials).
 */
@MicronautTest
@Property(name = ApiUsers.SECURITY_FILTER, value = "false")
class PipeliningTest {

    private static final int REQUESTS = 50;
    private static final Pattern TX_ID = Pattern.compile("\"txId\":\"([^\"]+)\"");

    @Inject
    EmbeddedServer server;

    @Inject
    Api api;

    @Test
    void shouldAnswerPipelinedTransactionsInOrderOnOneConnection() throws IOException {
        String id = api.openAccount("pipe-", Map.of("balance", 1_000));
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < REQUESTS; i++) {
            // The 30th repeats the 10th: a retry in the same pipeline is a replay, not a second debit.
            String txId = "p-" + (i == 30 ? 10 : i);
            String body = "{\"txId\":\"" + txId + "\",\"type\":\"DEBIT\",\"amount\":3}";
            requests.append("POST /accounts/").append(id).append("/transactions HTTP/1.1\r\n")
                    .append("Host: localhost\r\nContent-Type: application/json\r\n")
                    .append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
        }
        List<String> answers;
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(requests.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            answers = readResponses(socket.getInputStream(), REQUESTS);
        }

        List<String> order = new ArrayList<>();
        for (String answer : answers) {
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            Matcher txId = TX_ID.matcher(answer);
            assertTrue(txId.find(), answer);
            order.add(txId.group(1));
        }
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            sent.add("p-" + (i == 30 ? 10 : i));
        }
        assertEquals(sent, order);
        assertTrue(answers.get(30).toLowerCase().contains("idempotent-replayed: true"), answers.get(30));
        assertEquals(1_000 - 3 * (REQUESTS - 1), api.get("/accounts/" + id).number("balance"));
    }

    /** Reads {@code count} responses with a Content-Length each (the node does not chunk these answers). */
    private static List<String> readResponses(InputStream in, int count) throws IOException {
        List<String> responses = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the connection closed after " + n + " responses");
                }
                head.write(b);
            }
            String headers = head.toString(StandardCharsets.US_ASCII);
            Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(headers);
            assertTrue(length.find(), headers);
            byte[] body = in.readNBytes(Integer.parseInt(length.group(1)));
            responses.add(headers + new String(body, StandardCharsets.UTF_8));
        }
        return responses;
    }
}
