package io.partita.web;

import io.micronaut.core.annotation.Nullable;
import io.partita.node.HeapPressure;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * Refuses new work while the heap is nearly full of live objects ({@link HeapPressure}): the node sheds load rather
 * than thrash or die of it, until a collection frees enough.
 */
@Singleton
public class MemoryBacklog implements Backlog {

    private final HeapPressure heap = HeapPressure.jvm();

    @Nullable
    @Override
    public String refusal() {
        return heap.pressed() ? "This node's memory is nearly full (heap at "
                + Math.round(heap.live() * 100) + "% of its maximum after the last collection of old objects). "
                + "Retry shortly, or on another node." : null;
    }

    @Override
    public Duration retryAfter() {
        return Duration.ofSeconds(2);
    }
}
