package io.partita.web;

import io.micronaut.context.annotation.Value;
import io.partita.refusal.Refusal;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Back-pressure: at most {@code partita.max-in-flight} transactions are under way on this node at once (a batch
 * counts each of its items, a transfer its two steps). Past that a request is answered 503 with {@code Retry-After}
 * at once, so an overloaded node sheds load instead of queueing it without bound. The same answer comes while any
 * {@link Backlog} refuses work: the heap is nearly full after a collection ({@link MemoryBacklog}), or the journal
 * writer is behind.
 * <b>Threads:</b> permits are taken on the request thread and given back when the work's own stage completes, on
 * whatever thread completes it; they are one {@link Semaphore}. The caller gets a copy of that stage, so a caller that
 * stops waiting early (a timeout on the answer) does not give the permits back while the work still runs: they are
 * held until the work ends.
 */
@Singleton
public class InFlightLimit {

    private final int max;
    private final Semaphore permits;
    private final List<Backlog> backlogs;

    @Inject
    InFlightLimit(@Value("${partita.max-in-flight:20000}") int max, List<Backlog> backlogs) {
        this.max = max;
        this.permits = new Semaphore(max);
        this.backlogs = List.copyOf(backlogs);
    }

    InFlightLimit(int max) {
        this(max, List.of());
    }

    public <T> CompletionStage<T> run(int count, Supplier<CompletionStage<T>> work) {
        for (Backlog backlog : backlogs) {
            String refusal = backlog.refusal();
            if (refusal != null) {
                return CompletableFuture.failedFuture(Refusal.unavailable(refusal, backlog.retryAfter()));
            }
        }
        if (!permits.tryAcquire(count)) {
            return CompletableFuture.failedFuture(Refusal.unavailable("This node has its maximum of " + max
                    + " transactions in flight. Retry shortly.", Duration.ofSeconds(1)));
        }
        CompletionStage<T> stage;
        try {
            stage = work.get();
        } catch (RuntimeException e) {
            permits.release(count);
            throw e;
        }
        // whenComplete skips its action when the stage it returns is completed first, so that stage stays private:
        // an orTimeout or complete on the caller's copy cannot keep the permits from coming back, nor bring them back
        // before the work ends.
        return stage.whenComplete((result, failure) -> permits.release(count)).toCompletableFuture().copy();
    }

    public int available() {
        return permits.availablePermits();
    }

    /** {@code partita.max-in-flight}. */
    public int max() {
        return max;
    }
}
