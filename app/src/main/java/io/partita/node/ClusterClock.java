package io.partita.node;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The one clock every time that crosses members is read from: the cluster's time, the same on every member and free
 * of wall-clock steps. Each member runs it on its monotonic clock from an anchor: at start, Hazelcast's cluster time
 * (the master's wall clock as the member joined), and from then on the oldest member's cluster time, read every
 * {@link #SYNC_EVERY_SECONDS} s over one round trip. The oldest member is the reference and never moves its own.
 *
 * <p>So a member whose wall clock is minutes off, or steps (a VM that resumed, NTP stepping), still stamps journal
 * entries, leases, transfers, jobs and schedules in the cluster's time, and no member sees another's stamps as old
 * or new by its skew; a new master changes nothing. What remains: the cluster's time is the first member's wall clock
 * as it started, so a cluster started on a skewed host records skewed times (never losing, doubling or expiring
 * anything by it), and {@link #offset} shows every member's distance from it.
 *
 * <p><b>Threads:</b> {@link #now()} is read from any thread (two volatile fields); the anchor moves on the member's
 * clock thread ("partita-clock-&lt;member&gt;") only.
 */
public final class ClusterClock {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterClock.class);
    private static final String USER_CONTEXT_KEY = "partita.cluster-clock";
    static final long SYNC_EVERY_SECONDS = 5;
    /** A reading further off than this moves the clock at once; a closer one moves it by a tenth of the difference. */
    static final long STEP_ABOVE_MILLIS = 500;

    private final LongSupplier nanos;
    /** The cluster's time at {@code anchor.nanos}, and that instant on this member's monotonic clock. */
    private volatile Anchor anchor;

    ClusterClock(long clusterTimeNow, LongSupplier nanos) {
        this.nanos = nanos;
        this.anchor = new Anchor(clusterTimeNow, nanos.getAsLong());
    }

    private record Anchor(long millis, long nanos) {
    }

    /** The member's clock, anchored to Hazelcast's cluster time the first time it is asked for. */
    public static ClusterClock of(HazelcastInstance hazelcast) {
        return PerMember.of(hazelcast, USER_CONTEXT_KEY, ClusterClock.class,
                member -> new ClusterClock(member.getCluster().getClusterTime(), System::nanoTime));
    }

    /** Now, in epoch milliseconds of the cluster's time. */
    public static long now(HazelcastInstance hazelcast) {
        return of(hazelcast).now();
    }

    /** How far this member's own wall clock is ahead of the cluster's time, in milliseconds. */
    public static long offset(HazelcastInstance hazelcast) {
        return System.currentTimeMillis() - now(hazelcast);
    }

    /** Now, in epoch milliseconds of the cluster's time: for a caller that asks often and keeps the clock. */
    public long now() {
        Anchor at = anchor;
        return at.millis() + TimeUnit.NANOSECONDS.toMillis(nanos.getAsLong() - at.nanos());
    }

    /**
     * Moves this clock towards the reference's reading {@code reference}, taken over a round trip of
     * {@code roundTripNanos} that ended now: at once when it is more than {@link #STEP_ABOVE_MILLIS} off, else by a
     * tenth of the difference. Returns the difference found.
     */
    long adjust(long reference, long roundTripNanos) {
        long estimate = reference + TimeUnit.NANOSECONDS.toMillis(roundTripNanos) / 2;
        long difference = estimate - now();
        long move = Math.abs(difference) > STEP_ABOVE_MILLIS ? difference : difference / 10;
        if (move != 0) {
            Anchor at = anchor;
            anchor = new Anchor(at.millis() + move, at.nanos());
        }
        return difference;
    }

    /**
     * Keeps {@code hazelcast}'s clock with the oldest member's: once now, then every {@link #SYNC_EVERY_SECONDS} s on a
     * daemon thread that stops with the member.
     */
    static void keep(HazelcastInstance hazelcast) {
        ClusterClock clock = of(hazelcast);
        ScheduledExecutorService timer = Timers.single("partita-clock-" + hazelcast.getName());
        timer.scheduleWithFixedDelay(() -> {
            if (!hazelcast.getLifecycleService().isRunning()) {
                timer.shutdown();
                return;
            }
            clock.sync(hazelcast);
        }, 0, SYNC_EVERY_SECONDS, TimeUnit.SECONDS);
    }

    private void sync(HazelcastInstance hazelcast) {
        try {
            Member oldest = hazelcast.getCluster().getMembers().iterator().next();
            if (oldest.localMember()) {
                return;
            }
            long sent = nanos.getAsLong();
            Long reading = hazelcast.getExecutorService(MembershipNotice.EXECUTOR)
                    .submitToMember(new Reading(), oldest).get(2, TimeUnit.SECONDS);
            long roundTrip = nanos.getAsLong() - sent;
            if (reading != null && roundTrip < TimeUnit.SECONDS.toNanos(1)) {
                long difference = adjust(reading, roundTrip);
                if (Math.abs(difference) > STEP_ABOVE_MILLIS) {
                    LOG.info("Cluster time moved by {} ms to the oldest member's ({})", difference, oldest);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // A member leaving or busy: the next round asks again; meanwhile the clock runs on its monotonic base.
            LOG.debug("Cluster time not read from the oldest member: {}", e.toString());
        }
    }

    /** Asks a member for its cluster time. */
    @ClassId(85)
    public static final class Reading implements Callable<Long>, HazelcastInstanceAware, Stateless {

        private transient HazelcastInstance hazelcast;

        @Override
        public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
            this.hazelcast = hazelcastInstance;
        }

        @Override
        public Long call() {
            return now(hazelcast);
        }
    }
}
