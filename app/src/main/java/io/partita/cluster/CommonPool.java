package io.partita.cluster;

import java.util.concurrent.ForkJoinPool;

/**
 * Hazelcast runs the callbacks chained on its futures (thenApply, thenCompose, whenComplete) in the JDK's common
 * ForkJoinPool, unless that pool has a parallelism of 1, which it has on any 2-core machine or 2-CPU container: then
 * Hazelcast starts a new thread for every callback. The JMH module counted two started threads per partitioned
 * transaction, and the partitioned path ran at a third of its speed. The pool's size can only be chosen before the
 * pool is first used, so a process that hosts a member sizes it first thing.
 */
public final class CommonPool {

    static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private CommonPool() {
    }

    /**
     * Sizes the common pool to at least 2 threads unless the JVM was told otherwise. Returns the parallelism in force,
     * which stays 1 if the pool was already in use.
     */
    public static int configure() {
        if (System.getProperty(PARALLELISM) == null) {
            System.setProperty(PARALLELISM, String.valueOf(Math.max(2, Runtime.getRuntime().availableProcessors())));
        }
        return ForkJoinPool.getCommonPoolParallelism();
    }
}
