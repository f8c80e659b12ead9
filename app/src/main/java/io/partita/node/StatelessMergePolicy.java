package io.partita.node;

import com.hazelcast.spi.merge.MergingValue;
import com.hazelcast.spi.merge.SplitBrainMergePolicy;

/**
 * A split-brain merge policy that travels as an id in {@link Serialization}'s factory and nothing else: it carries no
 * state, so every member builds the same one.
 *
 * @param <V> the map's value
 * @param <T> what Hazelcast hands the policy for each side
 */
public abstract class StatelessMergePolicy<V, T extends MergingValue<V>>
        implements SplitBrainMergePolicy<V, T, Object>, Stateless {
}
