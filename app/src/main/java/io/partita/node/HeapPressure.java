package io.partita.node;

import com.sun.management.GarbageCollectionNotificationInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether this JVM's heap is nearly full: the heap still in use after a garbage collection, as a share of the most it
 * may grow to. A node past {@link #REFUSE_ABOVE} refuses new work (503 with Retry-After) instead of taking more until
 * it thrashes in collections or dies of an OutOfMemoryError.
 *
 * <p>Which collections count: the level after a young collection includes the old generation's garbage, which only a
 * mixed or full collection reclaims; under a steady load that garbage fills the old generation between mixed
 * collections (the journal map's entries and tails' entries live long enough to be promoted, then die), so a young
 * collection's level can read 85% on a heap whose live data is a third of it, and the node would refuse work it can
 * take. So the level is set by a collection that collected the old generation (a full one, or a mixed one: the old
 * generation came out smaller than it went in), and lowered by any later collection that leaves less in use (every
 * level is an upper bound of what is live). A collector without generations counts every collection.
 *
 * <p>Threads: the level is set by the JVM's notification thread after each collection ({@link #level} is synchronized,
 * and guards {@code oldCollected}) and read by any thread (volatile fields); reading it costs nothing per request.
 */
public final class HeapPressure {

    /** The share of the maximum heap in use after a collection above which new work is refused. */
    public static final double REFUSE_ABOVE = 0.85;

    private static final Logger LOG = LoggerFactory.getLogger(HeapPressure.class);
    private static final HeapPressure JVM = new HeapPressure();

    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    /** The old generation's pools (G1 Old Gen, PS Old Gen, Tenured Gen); none for a collector without generations. */
    private final Set<String> oldPools = heapPools.stream()
            .filter(name -> name.contains("Old Gen") || name.contains("Tenured")).collect(Collectors.toUnmodifiableSet());
    private volatile double afterLastCollection;
    private volatile boolean pressed;
    /** Whether a collection of the old generation has been seen; until then every collection sets the level. */
    private boolean oldCollected;

    /** A level of its own, fed by {@link #level} (tests); {@link #jvm} is the one the JVM's collections feed. */
    static HeapPressure detached() {
        return new HeapPressure(false);
    }

    private HeapPressure() {
        this(true);
    }

    private HeapPressure(boolean listen) {
        if (!listen) {
            return;
        }
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
                            .equals(notification.getType())) {
                        collected(GarbageCollectionNotificationInfo.from(
                                (CompositeData) notification.getUserData()));
                    }
                }, null, null);
            }
        }
    }

    /** This JVM's. */
    public static HeapPressure jvm() {
        return JVM;
    }

    /** Whether the heap after the last collection is above {@link #REFUSE_ABOVE} of its maximum. */
    public boolean pressed() {
        return pressed;
    }

    /**
     * The heap in use after the last collection of the old generation, or less after a later collection, as a share of
     * its maximum (0 before the first collection).
     */
    public double afterLastCollection() {
        return afterLastCollection;
    }

    private void collected(GarbageCollectionNotificationInfo info) {
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        if (max <= 0) {
            return;
        }
        Map<String, MemoryUsage> before = info.getGcInfo().getMemoryUsageBeforeGc();
        long used = 0;
        long oldBefore = 0;
        long oldAfter = 0;
        // The map has the non-heap pools too (metaspace, code cache): only the heap's count.
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
            if (oldPools.contains(pool.getKey()) && before.containsKey(pool.getKey())) {
                oldBefore += before.get(pool.getKey()).getUsed();
                oldAfter += pool.getValue().getUsed();
            }
        }
        boolean collectedOld = oldPools.isEmpty() || info.getGcAction().contains("major") || oldAfter < oldBefore;
        level(used / (double) max, collectedOld);
    }

    /** Takes the level {@code share} left by a collection that did or did not collect the old generation. */
    synchronized void level(double share, boolean collectedOld) {
        if (collectedOld || !oldCollected || share < afterLastCollection) {
            afterLastCollection = share;
        }
        oldCollected |= collectedOld;
        boolean now = afterLastCollection > REFUSE_ABOVE;
        if (now != pressed) {
            pressed = now;
            if (now) {
                LOG.warn("Heap at {}% of its maximum after a collection: refusing new work (503) until it is below {}%",
                        Math.round(afterLastCollection * 100), Math.round(REFUSE_ABOVE * 100));
            } else {
                LOG.info("Heap at {}% of its maximum after a collection: taking new work again",
                        Math.round(afterLastCollection * 100));
            }
        }
    }
}
