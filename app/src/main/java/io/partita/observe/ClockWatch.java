package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.node.ClusterClock;
import io.partita.node.Timers;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Watches how far this node's wall clock is from the cluster's time ({@link ClusterClock}, the oldest member's): it
 * logs a warning when the offset passes {@link #WARN_ABOVE} and again when it is back within it, and exports it as the
 * {@code partita_clock_offset_seconds} gauge. No decision depends on it: times that cross members are cluster time,
 * and durations are measured on each member's monotonic clock; a skewed node only records skewed local times in
 * its logs.
 * <b>Threads:</b> one daemon thread ("partita-clock-watch") checks every 5 s; the gauge reads a volatile field.
 */
@Context
public class ClockWatch {

    /** An offset past this is logged as a warning: far beyond what NTP leaves, and a fifth of a short heartbeat. */
    public static final Duration WARN_ABOVE = Duration.ofSeconds(2);
    private static final Logger LOG = LoggerFactory.getLogger(ClockWatch.class);

    private final HazelcastInstance hazelcast;
    private final ScheduledExecutorService timer = Timers.single("partita-clock-watch");
    /** Written by the watch thread, read by the gauge on the scraping thread. */
    private volatile long offsetMillis;
    /** Only the watch thread touches it. */
    private boolean warned;

    ClockWatch(HazelcastInstance hazelcast, MeterRegistry registry) {
        this.hazelcast = hazelcast;
        Meters.gauge(registry, "partita.clock.offset.seconds", this, watch -> watch.offsetMillis / 1000.0,
                "How far this node's wall clock is ahead of the cluster's time (negative: behind)");
        timer.scheduleWithFixedDelay(this::check, 0, 5, TimeUnit.SECONDS);
    }

    private void check() {
        try {
            if (!hazelcast.getLifecycleService().isRunning()) {
                return;
            }
            long offset = ClusterClock.offset(hazelcast);
            offsetMillis = offset;
            boolean far = Math.abs(offset) > WARN_ABOVE.toMillis();
            if (far && !warned) {
                LOG.warn("This node's wall clock is {} ms {} the cluster's time (more than {}): check NTP. Partita's "
                                + "decisions do not depend on it, but the times this node logs are off by as much",
                        Math.abs(offset), offset > 0 ? "ahead of" : "behind", WARN_ABOVE);
            } else if (!far && warned) {
                LOG.info("This node's wall clock is within {} of the cluster's time again ({} ms)", WARN_ABOVE, offset);
            }
            warned = far;
        } catch (RuntimeException e) {
            LOG.debug("Clock offset not read: {}", e.toString());
        }
    }

    @PreDestroy
    void stop() {
        Timers.stop(timer);
    }
}
