package io.partita.node;

import io.micronaut.context.BeanContext;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ShutdownEvent;
import jakarta.inject.Singleton;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Which application contexts have begun to stop. Micronaut announces a stop ({@link ShutdownEvent}) before it destroys
 * any bean, and then destroys them one by one while the HTTP server may still hand it requests. A request that needs a
 * bean already destroyed, or never made, would have the context build it again: a controller built then would start
 * a second Hazelcast member in the stopping node, on the same data directory. {@link HazelcastFactory} asks here and
 * refuses, and the error answer of any request that fails meanwhile is the node-stopping 503.
 *
 * <p>The record is kept per context, not per process, because tests and benchmarks run several nodes, and restart
 * them, in one JVM.
 */
@Singleton
public final class ContextStops implements ApplicationEventListener<ShutdownEvent> {

    private static final Set<BeanContext> STOPPING = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    @Override
    public void onApplicationEvent(ShutdownEvent event) {
        STOPPING.add(event.getSource());
    }

    /** Whether {@code context} has begun to stop. */
    public static boolean stopping(BeanContext context) {
        return STOPPING.contains(context);
    }
}
