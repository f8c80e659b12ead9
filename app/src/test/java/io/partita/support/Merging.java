package io.partita.support;

import com.hazelcast.spi.merge.MergingValue;

/** A side's value as a merge policy sees it, for merge policies tested as plain functions. */
public final class Merging {

    private Merging() {
    }

    /** {@code value} on one side of a split; its raw form is the value itself here, so a policy's answer is one of them. */
    public static <V> MergingValue<V> side(V value) {
        return new MergingValue<>() {
            @Override
            public V getDeserializedValue() {
                return value;
            }

            @Override
            public Object getRawValue() {
                return value;
            }
        };
    }
}
