package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Context;
import io.partita.node.Timers;
import jakarta.annotation.PreDestroy;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Whether the cluster is safe (every partition has its backups, no migration in flight), as last learned.
 * <b>Threads:</b> one daemon thread of this node ("partita-cluster-safety") asks, one question at a time,
 * {@link #PERIOD_MILLIS} after the last answer, and keeps the answer in a volatile field; every reader, on any thread
 * (readiness probes on the event loops, {@code /cluster}, Prometheus scrapes), gets the last answer without waiting.
 *
 * <p>Why not ask per request: asking is a round trip to every member, and a member that is paused (a long GC pause,
 * SIGSTOP) holds the answer, and an operation thread of each member that asked, until it is removed. Asked per request
 * (readiness probes, the dashboard's poll of {@code /cluster}, a Prometheus scrape) that ties up the live members
 * while one is paused. Until the first answer, and while the member is not running, the cluster is reported unsafe.
 */
@Context
public class ClusterSafety {

    static final long PERIOD_MILLIS = 500;

    private final HazelcastInstance hazelcast;
    private final ScheduledExecutorService asker = Timers.single("partita-cluster-safety");
    private volatile boolean safe;

    ClusterSafety(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        asker.scheduleWithFixedDelay(this::ask, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The last answer: whether the cluster was safe when this node last asked (at most about a second ago). */
    public boolean isSafe() {
        return safe && hazelcast.getLifecycleService().isRunning();
    }

    private void ask() {
        try {
            safe = hazelcast.getLifecycleService().isRunning() && hazelcast.getPartitionService().isClusterSafe();
        } catch (RuntimeException e) {
            // A member stopping or not yet joined: unsafe until it answers again.
            safe = false;
        }
    }

    @PreDestroy
    void stop() {
        asker.shutdownNow();
    }
}
