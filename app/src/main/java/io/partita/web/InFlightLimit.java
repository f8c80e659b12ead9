package io.partita.web;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Back-pressure: at most {@code partita.max-in-flight} transactions are under way on this node at once (a batch
 * counts each of its items). Past that a request is answered 503 with {@code Retry-After} at once, so an overloaded
 * node sheds load instead of queueing it without bound. Permits are taken on the request thread and given back when
 * the work completes, on whatever thread completes it.
 */
@Singleton
public class InFlightLimit {

    private final int max;
    private final Semaphore permits;

    InFlightLimit(@Value("${partita.max-in-flight:20000}") int max) {
        this.max = max;
        this.permits = new Semaphore(max);
    }

    public <T> CompletionStage<T> run(int count, Supplier<CompletionStage<T>> work) {
        if (!permits.tryAcquire(count)) {
            return CompletableFuture.failedFuture(ApiException.unavailable("This node has its maximum of " + max
                    + " transactions in flight. Retry shortly.", Duration.ofSeconds(1)));
        }
        CompletionStage<T> stage;
        try {
            stage = work.get();
        } catch (RuntimeException e) {
            permits.release(count);
            throw e;
        }
        return stage.whenComplete((result, failure) -> permits.release(count));
    }

    public int available() {
        return permits.availablePermits();
    }
}
