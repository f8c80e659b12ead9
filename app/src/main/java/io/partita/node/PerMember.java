package io.partita.node;

import com.hazelcast.core.HazelcastInstance;

import java.util.function.Function;

/**
 * The one instance of a helper per member, kept in the member's user context so that entry processors, which find
 * their member by injection, reach the same one as the node's beans.
 * Called from any thread (partition threads, request threads, start-up); two threads that build one
 * at once keep the first stored ({@code putIfAbsent}), and the other build is dropped unused.
 */
public final class PerMember {

    private PerMember() {
    }

    /** The member's {@code type} under {@code key}, built by {@code build} the first time. */
    public static <T> T of(HazelcastInstance hazelcast, String key, Class<T> type,
                           Function<HazelcastInstance, T> build) {
        // Not computeIfAbsent: building one reaches for the others in the same user context map.
        Object existing = hazelcast.getUserContext().get(key);
        if (existing == null) {
            Object built = build.apply(hazelcast);
            existing = hazelcast.getUserContext().putIfAbsent(key, built);
            existing = existing == null ? built : existing;
        }
        return type.cast(existing);
    }
}
