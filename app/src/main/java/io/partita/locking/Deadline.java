package io.partita.locking;

import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The moment by which a request must have its answer: {@code partita.request-timeout} after it arrived. One deadline
 * spans everything the request does (the lock waits, every grid call, every step of a transfer), so the request as a
 * whole answers within the timeout instead of each part getting a timeout of its own.
 * A deadline belongs to one request and is used by the thread that runs it (the locked path's task, a
 * transfer's coordinating thread); {@link #await} blocks that thread at most until the deadline. Whether a write may
 * have been sent is kept in a volatile flag.
 *
 * <p>A deadline also remembers whether a write may have been sent ({@link #beforeWrite()}), which decides what an
 * expiry tells the client: "nothing was changed" before, "may or may not have been applied" after. Either way the
 * answer is a 503 with {@code Retry-After}, and retrying with the same id is safe.
 */
public final class Deadline {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final long at;
    private volatile boolean written;

    private Deadline(long at) {
        this.at = at;
    }

    /** A deadline {@code timeout} from now; take it when the request arrives. */
    public static Deadline after(Duration timeout) {
        return new Deadline(System.nanoTime() + timeout.toNanos());
    }

    public long remainingNanos() {
        return at - System.nanoTime();
    }

    public boolean passed() {
        return remainingNanos() <= 0;
    }

    /** @throws Refusal 503 once the deadline has passed */
    public void check() {
        if (passed()) {
            throw expired();
        }
    }

    /**
     * Call right before sending a write. Past the deadline the write is not sent (the client may already have its
     * 503); otherwise, from now on, an expiry says the request may have been applied.
     */
    public void beforeWrite() {
        check();
        written = true;
    }

    /**
     * Waits for {@code stage} until the deadline at most. A value already there is taken even past the deadline.
     *
     * @throws Refusal 503 when the deadline passes first, or the stage's failure as {@link
     *                      io.partita.refusal.GridFailures} translates it (the grid call itself may still complete
     *                      later; it is a read, or a write whose retry is answered from the duplicate check)
     */
    public <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(Math.max(0, remainingNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw expired();
        } catch (ExecutionException e) {
            throw GridFailures.translate(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw expired();
        }
    }

    /** The 503 of a request that ran out of time: what it says depends on whether a write may have been sent. */
    public Refusal expired() {
        return written
                ? Refusal.unavailable("The request did not finish within the request timeout, so it may or may "
                        + "not have been applied. Retry with the same id to learn which.", RETRY_AFTER)
                : Refusal.unavailable("The request did not finish within the request timeout and nothing was "
                        + "changed. Retry with the same id.", RETRY_AFTER);
    }
}
