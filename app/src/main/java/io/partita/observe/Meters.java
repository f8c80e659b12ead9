package io.partita.observe;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.ToDoubleFunction;

/**
 * Registers a meter read from an object when scraped: the one builder call every meter of this package makes.
 */
final class Meters {

    private Meters() {
    }

    /** A value that goes up and down, read from {@code source} when scraped. */
    static <T> void gauge(MeterRegistry registry, String name, T source, ToDoubleFunction<T> read,
                          String description, String... tags) {
        Gauge.builder(name, source, read).description(description).tags(tags).register(registry);
    }

    /** A count that only grows (Prometheus adds {@code _total}), read from {@code source} when scraped. */
    static <T> void counter(MeterRegistry registry, String name, T source, ToDoubleFunction<T> read,
                            String description) {
        FunctionCounter.builder(name, source, read).description(description).register(registry);
    }
}
