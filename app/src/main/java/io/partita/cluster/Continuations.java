package io.partita.cluster;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the second step of a grid call runs. A Hazelcast future may complete on a response thread, and a response
 * thread may not start a call to another member ({@code IllegalThreadStateException}); so a step that makes another
 * grid call (the journal write after the entry processor, the next transaction of an account in a batch) is handed to
 * this small pool instead. Its work is only issuing asynchronous calls, so a few threads serve a whole node.
 */
public final class Continuations {

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newFixedThreadPool(
            Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), runnable -> {
                Thread thread = new Thread(runnable, "partita-continuation-" + THREADS.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });

    private Continuations() {
    }

    public static Executor executor() {
        return POOL;
    }
}
