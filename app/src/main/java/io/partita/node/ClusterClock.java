package io.partita.node;

import com.hazelcast.core.HazelcastInstance;

/**
 * The one wall clock every time that crosses members is read from: the cluster's time, which Hazelcast keeps on each
 * member as its own clock plus its offset from the master's, corrected with every heartbeat from the master. A member
 * whose wall clock is minutes off still stamps journal entries, leases, transfers, jobs and schedules in the master's
 * time, so that no other member sees them as old or new by that skew. Durations within one member use
 * {@link System#nanoTime()} instead.
 * <b>Threads:</b> any; it reads two volatile values.
 */
public final class ClusterClock {

    private ClusterClock() {
    }

    /** Now, in epoch milliseconds of the cluster's time. */
    public static long now(HazelcastInstance hazelcast) {
        return hazelcast.getCluster().getClusterTime();
    }

    /** How far this member's own wall clock is ahead of the cluster's time (the master's), in milliseconds. */
    public static long offset(HazelcastInstance hazelcast) {
        return System.currentTimeMillis() - now(hazelcast);
    }
}
