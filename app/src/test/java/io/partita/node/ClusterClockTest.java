package io.partita.node;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cluster's time runs on the member's monotonic clock from its anchor, so a wall-clock step moves nothing; it
 * follows the oldest member's reading, at once when far off and by a tenth of the difference when close.
 */
class ClusterClockTest {

    private final AtomicLong nanos = new AtomicLong(TimeUnit.SECONDS.toNanos(5));

    @Test
    void shouldRunOnTheMonotonicClockFromItsAnchor() {
        ClusterClock clock = new ClusterClock(1_000_000L, nanos::get);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_500));
        assertEquals(1_001_500L, clock.now());
    }

    @Test
    void shouldStepToAReadingFarOffAndCountHalfTheRoundTrip() {
        ClusterClock clock = new ClusterClock(1_000_000L, nanos::get);
        long difference = clock.adjust(1_060_000L, TimeUnit.MILLISECONDS.toNanos(4));
        assertEquals(60_002L, difference);
        assertEquals(1_060_002L, clock.now());
    }

    @Test
    void shouldSlewTowardsACloseReading() {
        ClusterClock clock = new ClusterClock(1_000_000L, nanos::get);
        clock.adjust(1_000_100L, 0);
        assertEquals(1_000_010L, clock.now());
        clock.adjust(1_000_100L, 0);
        assertEquals(1_000_019L, clock.now());
    }
}
