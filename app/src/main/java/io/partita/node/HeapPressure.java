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
 * Whether this JVM's heap is nearly full: the heap still in use after the last garbage collection, as a share of the
 * most it may grow to. A node past {@link #REFUSE_ABOVE} refuses new work (503 with Retry-After) instead of taking
 * more until it thrashes in collections or dies of an OutOfMemoryError; the level after each collection says whether
 * the pressure is real (garbage not yet collected does not count).
 *
 * <p>Threads: the level is set by the JVM's notification thread after each collection and read by any thread (a
 * volatile field); reading it costs nothing per request.
 */
public final class HeapPressure {

    /** The share of the maximum heap in use after a collection above which new work is refused. */
    public static final double REFUSE_ABOVE = 0.85;

    private static final Logger LOG = LoggerFactory.getLogger(HeapPressure.class);
    private static final HeapPressure JVM = new HeapPressure();

    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    private volatile double afterLastCollection;
    private volatile boolean pressed;

    private HeapPressure() {
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

    /** The heap in use after the last collection, as a share of its maximum (0 before the first). */
    public double afterLastCollection() {
        return afterLastCollection;
    }

    private void collected(GarbageCollectionNotificationInfo info) {
        long used = 0;
        // The map has the non-heap pools too (metaspace, code cache): only the heap's count.
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        if (max <= 0) {
            return;
        }
        double share = used / (double) max;
        afterLastCollection = share;
        boolean now = share > REFUSE_ABOVE;
        if (now != pressed) {
            pressed = now;
            if (now) {
                LOG.warn("Heap at {}% of its maximum after a collection: refusing new work (503) until it is below {}%",
                        Math.round(share * 100), Math.round(REFUSE_ABOVE * 100));
            } else {
                LOG.info("Heap at {}% of its maximum after a collection: taking new work again",
                        Math.round(share * 100));
            }
        }
    }
}
