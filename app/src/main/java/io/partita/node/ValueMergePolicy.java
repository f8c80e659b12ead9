package io.partita.node;

import com.hazelcast.spi.merge.MergingValue;

/**
 * A split-brain merge policy that takes a value only one side holds as it is. A policy says how two sides' values of
 * one key become one ({@link #join}); it returns one of them to keep it (sent on as it arrived, without serializing it
 * again) or a new value. Runs on the partition thread of the key's owner in the merged cluster, once per entry the
 * smaller side brings. Subclasses are plain functions of the two values unless they say otherwise.
 *
 * @param <V> the map's value
 * @param <T> what Hazelcast hands the policy for each side
 */
public abstract class ValueMergePolicy<V, T extends MergingValue<V>> extends StatelessMergePolicy<V, T> {

    @Override
    public Object merge(T merging, T existing) {
        if (existing == null || existing.getRawValue() == null) {
            return merging.getRawValue();
        }
        V theirs = merging.getDeserializedValue();
        V ours = existing.getDeserializedValue();
        if (theirs == null || ours == null) {
            return ours == null ? merging.getRawValue() : existing.getRawValue();
        }
        V joined = join(theirs, ours);
        if (joined == ours) {
            return existing.getRawValue();
        }
        return joined == theirs ? merging.getRawValue() : joined;
    }

    /** The value that stands for both sides' (the other side's {@code theirs}, this side's {@code ours}). */
    protected abstract V join(V theirs, V ours);
}
