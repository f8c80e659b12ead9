package io.partita.node;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;

/**
 * An {@link Identified} class that carries no fields: it travels as its ids alone, and the receiver builds it anew
 * from its constructor, so every member has the same one.
 */
public interface Stateless extends Identified {

    @Override
    default void writeData(ObjectDataOutput out) {
    }

    @Override
    default void readData(ObjectDataInput in) {
    }
}
