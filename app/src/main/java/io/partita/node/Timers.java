package io.partita.node;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one way a bean gets a timer of its own: a single daemon thread with a name, which the bean shuts down with
 * itself. Beans use their own timer rather than Micronaut's {@code @Scheduled}, whose run during shutdown would build
 * the bean again (and with it a second Hazelcast member).
 */
public final class Timers {

    private Timers() {
    }

    /** A scheduled executor on one daemon thread called {@code name}. */
    public static ScheduledExecutorService single(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Stops a bean's timer: lets a tick in progress finish (no half-done step to account for later), up to 10 s, then
     * interrupts it.
     */
    public static void stop(ScheduledExecutorService timer) {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
                timer.shutdownNow();
            }
        } catch (InterruptedException e) {
            timer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
