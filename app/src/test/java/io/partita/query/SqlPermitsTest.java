package io.partita.query;

import io.partita.refusal.Refusal;
import io.partita.support.Blocking;
import io.partita.web.Refusals;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bound on concurrent queries as a plain object: a 503 past it, never a queue, and no permit kept. */
class SqlPermitsTest {

    private final SqlPermits permits = new SqlPermits(new SqlProperties(1000, Duration.ofSeconds(5), 4000, 2));

    @Test
    void shouldAnswer503WithRetryAfterPastTheBoundAndRunQueriesAgainOnceOneEnds() throws Exception {
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<String>> queries = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                queries.add(pool.submit(() -> permits.run(() -> {
                    running.countDown();
                    Blocking.run(finish::await);
                    return "answered";
                })));
            }
            assertTrue(running.await(10, TimeUnit.SECONDS), "the queries did not start");

            Refusal refused = assertThrows(Refusal.class, () -> permits.run(() -> "third"));
            assertEquals(503, Refusals.status(refused));
            assertEquals(Duration.ofSeconds(1), refused.retryAfter());
            assertTrue(refused.getMessage().contains("maximum of 2"), refused.getMessage());

            finish.countDown();
            for (Future<String> query : queries) {
                assertEquals("answered", query.get(10, TimeUnit.SECONDS));
            }
            assertEquals("third", permits.run(() -> "third"));
        } finally {
            finish.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void shouldGiveThePermitBackWhenAQueryFails() {
        for (int i = 0; i < 5; i++) {
            assertThrows(IllegalStateException.class, () -> permits.run(() -> {
                throw new IllegalStateException("engine failure");
            }));
        }
        assertEquals("answered", permits.run(() -> "answered"));
    }
}
