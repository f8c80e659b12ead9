package io.partita.load;

import io.partita.support.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node nearing its heap's limit refuses new work with 503 and {@code Retry-After}, and stays up and answering,
 * rather than thrashing in collections or dying of an OutOfMemoryError. One node as users start it (the JVM's default
 * collector, G1, and {@code -XX:+ExitOnOutOfMemoryError} as the image runs it), with a small heap and in memory mode,
 * where the journal of the whole retention stays in the heap: batches of credits fill it until it refuses. The refusal
 * is decided on the live heap (what a collection of the old generation leaves), so this also checks that the live
 * level keeps up with a heap that really fills.
 */
class MemoryRefusalIT {

    private static final int ACCOUNTS = 100;
    private static final int BATCH = 1_000;

    private NodeProcess node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.destroy();
        }
    }

    @Test
    void shouldRefuseBatchesWith503OnceTheLiveHeapIsNearlyFullAndApplyNothingOfThem()
            throws IOException, InterruptedException {
        String cluster = "memory-refusal-" + UUID.randomUUID().toString().substring(0, 8);
        NodeProcess.Place place = NodeProcess.Place.loopback(Ports.free(), Ports.free());
        Path data = Files.createDirectories(Path.of("target", "it-data", cluster));
        node = new NodeProcess(cluster, place, Map.of("PARTITA_CLUSTER_NAME", cluster, "PARTITA_DISCOVERY", "tcp",
                "PARTITA_MEMBERS", place.memberAddress(), "PARTITA_DURABILITY", "memory",
                "PARTITA_DATA_DIR", data.toAbsolutePath().toString()),
                List.of("-Xmx160m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1")).start();
        await().atMost(Duration.ofMinutes(2)).until(() -> node.get("/health/readiness") != null || !node.alive());
        assertTrue(node.alive(), node.describe());
        for (int i = 0; i < ACCOUNTS; i++) {
            HttpResponse<String> opened = node.send("POST", "/accounts", "{\"id\":\"m-" + i + "\"}");
            assertNotNull(opened, node.describe());
            assertEquals(201, opened.statusCode(), opened.body());
        }

        long credited = 0;
        HttpResponse<String> refusal = null;
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        for (int batch = 0; refusal == null && System.nanoTime() < deadline; ) {
            assertTrue(node.alive(), "the node died before it refused: " + node.describe());
            HttpResponse<String> answer = node.send("POST", "/transactions/batch", credits(batch));
            if (answer == null) {
                continue; // an indeterminate outcome: the same batch again, which its txIds make safe
            }
            if (answer.statusCode() == 200) {
                credited += BATCH;
                batch++;
            } else if (answer.statusCode() == 503 && answer.body().contains("memory is nearly full")) {
                refusal = answer;
            } else {
                // The journal writer behind (memory mode's other refusal): the same batch again, a moment later.
                assertEquals(503, answer.statusCode(), answer.body());
                Thread.sleep(200);
            }
        }

        assertNotNull(refusal, "no memory refusal within 4 minutes; credited " + credited + ": " + node.describe());
        assertTrue(refusal.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                refusal.headers().toString());
        assertTrue(refusal.headers().firstValue("Retry-After").isPresent(), refusal.headers().toString());
        Map<String, Object> problem = Json.object(refusal.body());
        assertEquals(503, ((Number) problem.get("status")).intValue(), refusal.body());
        assertTrue(((String) problem.get("type")).endsWith("/unavailable"), refusal.body());
        // Said in its log when it began refusing (readiness shows the state now, which a later collection may end).
        await().atMost(Duration.ofSeconds(10)).until(() -> node.logLinesContaining("refusing new work (503)") > 0);
        String readiness = node.get("/health/readiness");
        assertNotNull(readiness, "the node stopped answering: " + node.describe());
        assertTrue(readiness.contains("\"refusingWorkForMemory\":"), readiness);

        // Up and answering reads, with every credit it acknowledged and nothing of what it refused.
        long total = 0;
        for (int i = 0; i < ACCOUNTS; i++) {
            String account = node.get("/accounts/m-" + i);
            assertNotNull(account, node.describe());
            total += ((Number) Json.object(account).get("balance")).longValue();
        }
        assertEquals(credited, total);
        assertTrue(node.alive(), node.describe());
    }

    /** Batch {@code batch}: one credit of 1 for each of its txIds, spread over the accounts. */
    private static String credits(int batch) {
        StringJoiner items = new StringJoiner(",", "[", "]");
        for (int i = 0; i < BATCH; i++) {
            items.add("{\"txId\":\"c-" + batch + "-" + i + "\",\"accountId\":\"m-" + (i % ACCOUNTS)
                    + "\",\"type\":\"CREDIT\",\"amount\":1}");
        }
        return items.toString();
    }
}
