package io.partita.query;

import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Bounds the {@code POST /sql} queries this node runs at once to {@code partita.sql.max-concurrent}. A query holds
 * an HTTP blocking thread and engine threads for up to the timeout, so without a bound a burst of slow queries would
 * take the threads that transactions need. Past the bound a query is answered 503 with {@code Retry-After} at once,
 * never queued.
 * <b>Threads:</b> one {@link Semaphore}; a permit is taken with {@code tryAcquire} on the thread that runs the query
 * and given back in {@code finally} on that same thread, so no failure, timeout or refusal can keep one.
 */
@Singleton
class SqlPermits {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final int max;
    private final Semaphore permits;

    SqlPermits(SqlProperties properties) {
        this.max = properties.maxConcurrent();
        this.permits = new Semaphore(max);
    }

    <T> T run(Supplier<T> query) {
        if (!permits.tryAcquire()) {
            throw Refusal.unavailable("This node is running its maximum of " + max
                    + " SQL queries at once. Retry shortly.", RETRY_AFTER);
        }
        try {
            return query.get();
        } finally {
            permits.release();
        }
    }
}
