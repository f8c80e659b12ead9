package io.partita.node;

import com.hazelcast.internal.util.ConcurrencyUtil;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the step after a grid call runs.
 * <b>Threads:</b> any thread hands work to the pool; its threads ("partita-continuation-N", as many as cores, at least
 * 2) run Hazelcast's callbacks and Partita's continuations, which must be short and never block. {@link #install()}
 * may be called by every member start in the JVM: it sets the executor only where it is not set already.
 *
 * <p>A Hazelcast future completes on a response thread, and a response thread may not start a call to another member
 * ({@code IllegalThreadStateException}); so a step that makes another grid call (the journal write after the entry
 * processor, the next transaction of an account in a batch) is handed to this pool instead.
 *
 * <p>Hazelcast itself runs every non-async callback of its futures ({@code thenApply}, {@code handle}, ...) on its
 * "default async executor": the common {@link ForkJoinPool} when that has two threads or more, otherwise <em>a new
 * thread per callback</em>. On a 2-core machine the common pool has one thread, so each request paid for starting a
 * thread; and the common pool is shared with any code that blocks on it, which would stall every grid answer. So
 * {@link #install()} makes this pool Hazelcast's default async executor too: one pool, owned by Partita, for every
 * continuation of a grid call. Its work is short and never blocks (issuing asynchronous calls, translating answers),
 * so a few threads serve a whole node.
 */
public final class Continuations {

    private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());
    private static final ExecutorService POOL = create();

    private Continuations() {
    }

    public static Executor executor() {
        return POOL;
    }

    /**
     * Makes {@link #executor()} Hazelcast's default async executor, once per JVM, before a member starts. It is a
     * static of Hazelcast's internal {@code ConcurrencyUtil}, read when a future runs a callback, not cached.
     */
    public static void install() {
        if (ConcurrencyUtil.getDefaultAsyncExecutor() != POOL) {
            ConcurrencyUtil.setDefaultAsyncExecutor(POOL);
        }
    }

    /** A fork-join pool in FIFO mode: it measured a little faster than a fixed pool with one shared queue. */
    private static ExecutorService create() {
        AtomicInteger count = new AtomicInteger();
        return new ForkJoinPool(THREADS, pool -> {
            ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            thread.setName("partita-continuation-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, null, true);
    }
}
