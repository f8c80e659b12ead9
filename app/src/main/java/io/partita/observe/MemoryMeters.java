package io.partita.observe;

import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.node.HeapPressure;

/**
 * This node's heap as its refusals see it ({@link HeapPressure}), in {@code /prometheus}: {@code partita_heap_live}
 * (what the last collection of the old generation left, as a share of the maximum heap: the level refusals are decided
 * on), {@code partita_heap_after_collection} (the same after the last collection of any kind, old garbage included)
 * and {@code partita_memory_refusing} (1 while the node refuses new work for its memory). Read when scraped from
 * volatile fields the JVM's notification thread sets.
 */
@Context
class MemoryMeters {

    MemoryMeters(MeterRegistry registry) {
        HeapPressure heap = HeapPressure.jvm();
        Meters.gauge(registry, "partita.heap.live", heap, HeapPressure::live,
                "Heap in use after the last collection of the old generation, as a share of the maximum heap");
        Meters.gauge(registry, "partita.heap.after.collection", heap, HeapPressure::afterLastCollection,
                "Heap in use after the last collection of any kind, as a share of the maximum heap");
        Meters.gauge(registry, "partita.memory.refusing", heap, h -> h.pressed() ? 1 : 0,
                "1 while this node refuses new work because its live heap is nearly full");
    }
}
