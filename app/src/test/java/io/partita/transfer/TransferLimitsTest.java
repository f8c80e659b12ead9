package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountFeature;
import io.partita.locking.AccountLocks;
import io.partita.locking.Held;
import io.partita.support.Api;
import io.partita.web.InFlightLimit;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transfer is bounded in time and in number: it answers 503 by {@code partita.request-timeout} even when a lock
 * would be free only later (here the lock timeout is longer than the request timeout), and past
 * {@code partita.max-in-flight} (two permits per transfer) it answers 503 at once.
 */
@MicronautTest
@Property(name = "partita.request-timeout", value = "3s")
@Property(name = "partita.cp.lock-timeout", value = "10s")
@Property(name = "partita.max-in-flight", value = "2")
class TransferLimitsTest {

    /** Threads for requests that block; never the common pool. */
    private static final ExecutorService CLIENTS = Executors.newCachedThreadPool();

    @Inject
    Api api;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    AccountLocks locks;

    @Inject
    InFlightLimit inFlight;

    private String open(long balance) {
        return api.openAccount("t-", Map.of("balance", balance));
    }

    private long balance(String id) {
        return AccountFeature.accounts(hazelcast).get(id).balance();
    }

    private static Map<String, Object> transfer(String txId, String from, String to, long amount) {
        return Map.of("txId", txId, "from", from, "to", to, "amount", amount);
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldAnswer503ByTheRequestTimeoutAndRecordNothingWhileALockIsHeldLonger() {
        String from = open(1_000);
        String to = open(0);
        Api.Reply answer;
        long elapsedMillis;
        try (Held ignored = locks.lock(to)) {
            long started = System.nanoTime();
            answer = api.post("/transfers?mode=locked", transfer("x-1", from, to, 10));
            elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        }
        // The transfer's task ends too, giving back its permits, and writes nothing once the lock is free.
        await().atMost(Duration.ofSeconds(10)).until(() -> inFlight.available() == inFlight.max());

        assertEquals(503, answer.status(), answer.toString());
        assertEquals("1", answer.headers().get("Retry-After"));
        assertTrue(answer.map().get("detail").toString().contains("Retry with the same id"),
                answer.toString());
        assertTrue(elapsedMillis < 7_000, "answered after " + elapsedMillis + " ms, the lock timeout is 10 s");
        assertNull(TransferFeature.transfers(hazelcast).get(new TransferKey(from, "x-1")));
        assertEquals(1_000, balance(from));
        assertEquals(0, balance(to));
        Api.Reply retry = api.post("/transfers?mode=locked", transfer("x-1", from, to, 10));
        assertEquals(200, retry.status());
        assertEquals(990, balance(from));
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldAnswer503AtOnceWhenTransfersFillTheNodeAndServeAgainOnceTheyEnd() {
        String a = open(1_000);
        String b = open(0);
        String c = open(1_000);
        String d = open(0);
        CompletableFuture<Api.Reply> blocked;
        Api.Reply refused;
        try (Held ignored = locks.lock(b)) {
            blocked = CompletableFuture.supplyAsync(
                    () -> api.post("/transfers?mode=locked", transfer("x-1", a, b, 10)), CLIENTS);
            await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(10))
                    .until(() -> inFlight.available() == 0);
            refused = api.post("/transfers", transfer("x-2", c, d, 10));
        }

        assertEquals(503, refused.status(), refused.toString());
        assertEquals("1", refused.headers().get("Retry-After"));
        assertTrue(refused.map().get("detail").toString().contains("maximum"), refused.toString());
        assertNull(TransferFeature.transfers(hazelcast).get(new TransferKey(c, "x-2")));
        assertEquals(1_000, balance(c));
        blocked.join();
        await().atMost(Duration.ofSeconds(10)).until(() -> inFlight.available() == inFlight.max());
        assertEquals(200, api.post("/transfers", transfer("x-2", c, d, 10)).status());
        assertEquals(10, balance(d));
    }
}
