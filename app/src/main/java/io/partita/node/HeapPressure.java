package io.partita.node;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether this JVM's heap is nearly full of live objects: the heap still in use after the last collection that
 * collected the old generation (a mixed or full one), as a share of the most it may grow to. A node past
 * {@link #REFUSE_ABOVE} refuses new work (503 with Retry-After) instead of taking more until it thrashes in
 * collections or dies of an OutOfMemoryError.
 *
 * <p>Why not the heap after any collection: a young collection leaves the old generation as it was, garbage included,
 * and a generational collector lets that garbage gather until a concurrent cycle is worth its cost (G1 starts one when
 * the old generation passes an adaptive threshold, often past half the heap). So under a steady load whose live heap
 * is a quarter of the maximum, the level after a young collection climbs to 0.6 or 0.8 and drops back every few dozen
 * seconds, and would refuse work that the heap has room for. The level after an old-generation collection is what
 * survives it: the live heap, with what garbage that collection chose to leave. When the live heap really grows, the
 * collector collects the old generation more often, and a full collection, the last resort, measures it exactly. A
 * young collection that leaves less in use than that level lowers it (nothing can be more live than what survived it).
 * Until the first old-generation collection, the level after each collection is the only measure there is.
 *
 * <p>Threads: the levels are set by the JVM's notification thread after each collection and read by any thread
 * (volatile fields); reading them costs nothing per request.
 */
public final class HeapPressure {

    /** The share of the maximum heap in use after a collection above which new work is refused. */
    public static final double REFUSE_ABOVE = 0.85;

    private static final Logger LOG = LoggerFactory.getLogger(HeapPressure.class);
    private static final HeapPressure JVM = new HeapPressure();

    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    /** The old generation's pool, or empty for a collector without generations (every collection is a whole one). */
    private final Optional<String> oldPool = heapPools.stream().filter(HeapPressure::isOldPool).findFirst();
    private final Levels levels = new Levels();
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

    /** Whether the live heap ({@link #live}) is above {@link #REFUSE_ABOVE} of its maximum. */
    public boolean pressed() {
        return pressed;
    }

    /** The heap in use after the last collection of any kind, as a share of its maximum (0 before the first). */
    public double afterLastCollection() {
        return levels.afterLast();
    }

    /**
     * The heap in use after the last collection of the old generation, or after a later young one that left less, as
     * a share of its maximum: what the class comment calls the live heap (0 before the first collection).
     */
    public double live() {
        return levels.live();
    }

    private void collected(GarbageCollectionNotificationInfo info) {
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        if (max <= 0) {
            return;
        }
        GcInfo gc = info.getGcInfo();
        boolean whole = oldPool.isEmpty() || "end of major GC".equals(info.getGcAction())
                || usedIn(gc.getMemoryUsageAfterGc(), oldPool.get()) < usedIn(gc.getMemoryUsageBeforeGc(), oldPool.get());
        long used = 0;
        // The map has the non-heap pools too (metaspace, code cache): only the heap's count.
        for (Map.Entry<String, MemoryUsage> pool : gc.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        levels.collected(used / (double) max, whole);
        double live = levels.live();
        boolean now = live > REFUSE_ABOVE;
        if (now != pressed) {
            pressed = now;
            if (now) {
                LOG.warn("Live heap at {}% of its maximum after a collection: refusing new work (503) until it is below"
                        + " {}%", Math.round(live * 100), Math.round(REFUSE_ABOVE * 100));
            } else {
                LOG.info("Live heap at {}% of its maximum after a collection: taking new work again",
                        Math.round(live * 100));
            }
        }
    }

    private static long usedIn(Map<String, MemoryUsage> pools, String pool) {
        MemoryUsage usage = pools.get(pool);
        return usage == null ? 0 : usage.getUsed();
    }

    /** G1's "G1 Old Gen", Parallel's "PS Old Gen", Serial's "Tenured Gen". */
    static boolean isOldPool(String name) {
        return name.contains("Old Gen") || name.contains("Tenured");
    }

    /**
     * The two levels, from one collection after another: {@code whole} when the collection collected the old
     * generation (its pool holds less after it than before, or it was a full collection).
     */
    static final class Levels {

        private volatile double afterLast;
        private volatile double live;
        private boolean oldCollected;

        void collected(double after, boolean whole) {
            afterLast = after;
            if (whole || !oldCollected) {
                live = after;
                oldCollected |= whole;
            } else if (after < live) {
                live = after;
            }
        }

        double afterLast() {
            return afterLast;
        }

        double live() {
            return live;
        }
    }
}
