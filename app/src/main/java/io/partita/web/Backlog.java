package io.partita.web;

import io.micronaut.core.annotation.Nullable;

import java.time.Duration;

/**
 * A reason for a node to refuse new work for a while: work it accepted and still has to finish behind the answers it
 * gave (the journal writer's queue), or a heap nearly full ({@link MemoryBacklog}). Past its bound the node refuses new
 * work ({@link InFlightLimit}) until it has caught up, so that a sustained load it cannot finish turns into 503s with
 * {@code Retry-After} rather than a queue that grows until the node slows down for good or dies of it. Every bean of
 * this type is asked on each request.
 */
public interface Backlog {

    /** Why new work is refused now, or null. Any thread; called on every request, so it must be cheap. */
    @Nullable
    String refusal();

    /** How long a refused client is told to wait before it tries again. */
    default Duration retryAfter() {
        return Duration.ofSeconds(1);
    }
}
