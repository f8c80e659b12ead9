package io.partita.web;

import io.partita.refusal.Refusal;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Back-pressure: past the limit a request is answered 503 at once and its work never starts. */
class InFlightLimitTest {

    @Test
    void shouldAnswer503PastTheLimitWithoutStartingTheWorkAndRecoverWhenWorkCompletes() {
        InFlightLimit limit = new InFlightLimit(3);
        CompletableFuture<String> batchOfTwo = new CompletableFuture<>();
        CompletableFuture<String> single = new CompletableFuture<>();
        limit.run(2, () -> batchOfTwo);
        limit.run(1, () -> single);

        AtomicBoolean started = new AtomicBoolean();
        CompletableFuture<String> refused = limit.run(1, () -> {
            started.set(true);
            return CompletableFuture.completedFuture("ran");
        }).toCompletableFuture();

        CompletionException failure = assertThrows(CompletionException.class, refused::join);
        Refusal answer = (Refusal) failure.getCause();
        assertEquals(503, Refusals.status(answer));
        assertEquals(1, answer.retryAfter().toSeconds());
        assertFalse(started.get());

        batchOfTwo.completeExceptionally(new IllegalStateException("failed work frees its permits too"));
        assertEquals(2, limit.available());
        assertEquals("ran", limit.run(2, () -> CompletableFuture.completedFuture("ran")).toCompletableFuture().join());
        single.complete("done");
        assertEquals(3, limit.available());
    }

    @Test
    void shouldAnswer503WhileABacklogIsPastItsBoundAndTakeWorkOnceItCaughtUp() {
        AtomicBoolean behind = new AtomicBoolean(true);
        InFlightLimit limit = new InFlightLimit(3, List.of(() -> behind.get() ? "the writer is behind" : null));
        AtomicBoolean started = new AtomicBoolean();

        CompletionException failure = assertThrows(CompletionException.class, () -> limit.run(1, () -> {
            started.set(true);
            return CompletableFuture.completedFuture("ran");
        }).toCompletableFuture().join());
        behind.set(false);

        Refusal answer = (Refusal) failure.getCause();
        assertEquals(503, Refusals.status(answer));
        assertEquals("the writer is behind", answer.getMessage());
        assertEquals(1, answer.retryAfter().toSeconds());
        assertFalse(started.get());
        assertEquals(3, limit.available());
        assertEquals("ran", limit.run(1, () -> CompletableFuture.completedFuture("ran")).toCompletableFuture().join());
    }

    @Test
    void shouldTellTheRefusedClientToWaitAsLongAsTheRefusingBacklogSays() {
        Backlog memory = new Backlog() {
            @Override
            public String refusal() {
                return "memory is nearly full";
            }

            @Override
            public Duration retryAfter() {
                return Duration.ofSeconds(2);
            }
        };
        InFlightLimit limit = new InFlightLimit(3, List.of(() -> null, memory));

        CompletionException failure = assertThrows(CompletionException.class, () -> limit.run(1,
                () -> CompletableFuture.completedFuture("ran")).toCompletableFuture().join());

        Refusal answer = (Refusal) failure.getCause();
        assertEquals("memory is nearly full", answer.getMessage());
        assertEquals(2, answer.retryAfter().toSeconds());
        assertEquals(3, limit.available());
    }

    @Test
    void shouldGiveBackThePermitsWhenStartingTheWorkThrows() {
        InFlightLimit limit = new InFlightLimit(1);
        assertThrows(IllegalArgumentException.class, () -> limit.run(1, () -> {
            throw new IllegalArgumentException("bad");
        }));
        assertEquals(1, limit.available());
    }

    @Test
    void shouldHoldThePermitsUntilTheWorkEndsEvenWhenTheCallerStopsWaitingFirst() {
        InFlightLimit limit = new InFlightLimit(2);
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> answer = limit.run(2, () -> work).toCompletableFuture();

        // The caller gives up (its own timeout answers the client) while the work still runs.
        answer.orTimeout(1, TimeUnit.MILLISECONDS);
        assertThrows(CompletionException.class, answer::join);
        assertEquals(0, limit.available());
        assertFalse(work.isDone());

        work.complete("done");
        assertEquals(2, limit.available());
    }
}
