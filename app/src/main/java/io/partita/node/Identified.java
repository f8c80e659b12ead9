package io.partita.node;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * An IdentifiedDataSerializable of Partita's one factory ({@link Serialization#FACTORY_ID}): a class names only its
 * own class id, which its feature registers (see {@link Feature#classes()}).
 */
public interface Identified extends IdentifiedDataSerializable {

    @Override
    default int getFactoryId() {
        return Serialization.FACTORY_ID;
    }
}
