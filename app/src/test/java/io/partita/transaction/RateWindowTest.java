package io.partita.transaction;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The per-second rate as a plain function of a clock. */
class RateWindowTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final RateWindow window = new RateWindow(now::get);

    @Test
    void shouldAverageTheLastWholeSecondsAndIgnoreTheCurrentOne() {
        record(30);            // second 1000
        now.addAndGet(1_000);
        record(60);            // second 1001
        now.addAndGet(1_000);
        record(90);            // second 1002
        now.addAndGet(1_000);
        record(1_000);         // second 1003, still counting
        assertEquals((30 + 60 + 90) / 3.0, window.perSecond());
    }

    @Test
    void shouldForgetSecondsOutsideTheWindowEvenWhenTheirBucketsComeRoundAgain() {
        record(500);
        now.addAndGet(8_000);  // the same bucket, eight seconds on
        record(3);
        now.addAndGet(1_000);
        assertEquals(1.0, window.perSecond());
        now.addAndGet(10_000);
        assertEquals(0.0, window.perSecond());
    }

    private void record(int times) {
        for (int i = 0; i < times; i++) {
            window.record();
        }
    }
}
