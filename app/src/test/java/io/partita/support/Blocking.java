package io.partita.support;

/**
 * A blocking call in test code that has no use for an interrupt: it restores the thread's interrupt flag and fails
 * with an unchecked exception, so that the caller need not declare or catch {@link InterruptedException}.
 */
public final class Blocking {

    private Blocking() {
    }

    /** A call that may block and be interrupted: {@code thread::join}, {@code latch::await}, a back-off sleep. */
    public interface Call {
        void run() throws InterruptedException;
    }

    public static void run(Call call) {
        try {
            call.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
