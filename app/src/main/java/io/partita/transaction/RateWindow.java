package io.partita.transaction;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Events per second over the last few whole seconds, for a dashboard: a ring of per-second buckets, each stamped with
 * the second it counts.
 * <b>Threads:</b> {@link #record()} is lock-free (one increment, and a reset the first time a bucket is reused); a
 * reset racing an increment of the same new second may lose that increment, which a displayed rate can afford. The
 * exact totals live in the Micrometer counters beside it.
 */
final class RateWindow {

    private static final int BUCKETS = 8;
    /** Seconds averaged: the last whole ones, not the one still being counted. */
    static final int AVERAGED = 3;

    private final AtomicLongArray seconds = new AtomicLongArray(BUCKETS);
    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongSupplier clockMillis;

    RateWindow(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
        for (int i = 0; i < BUCKETS; i++) {
            seconds.set(i, -1);
        }
    }

    void record() {
        long second = clockMillis.getAsLong() / 1000;
        int bucket = (int) (second % BUCKETS);
        long stamped = seconds.get(bucket);
        if (stamped != second && seconds.compareAndSet(bucket, stamped, second)) {
            counts.set(bucket, 0);
        }
        counts.incrementAndGet(bucket);
    }

    double perSecond() {
        long now = clockMillis.getAsLong() / 1000;
        long sum = 0;
        for (long second = now - AVERAGED; second < now; second++) {
            int bucket = (int) (second % BUCKETS);
            if (seconds.get(bucket) == second) {
                sum += counts.get(bucket);
            }
        }
        return (double) sum / AVERAGED;
    }
}
