package io.partita.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A test workload's items shared out over worker threads.
 *
 * <p>Threads: {@link #run} blocks the caller; the items run on a pool of its own, stopped before it returns.
 * Thread {@code t} takes the items {@code t, t + threads, t + 2 * threads, ...} in order, with a {@link Random} of its
 * own seeded from the workload's seed and {@code t}, so that a run is repeatable for a given seed and thread count.
 */
public final class Workers {

    private Workers() {
    }

    /** One item of the workload, given its index and its thread's random numbers. */
    public interface Item {
        void run(int index, Random random) throws Exception;
    }

    /** Runs items {@code 0 .. count - 1} on {@code threads} threads; returns when each has run (at most 5 min). */
    public static void run(int threads, int count, long seed, Item item) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int slice = t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed * 31 + slice);
                    for (int i = slice; i < count; i += threads) {
                        item.run(i, random);
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
