package io.partita.node;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/**
 * An IdentifiedDataSerializable of Partita's one factory ({@link Serialization#FACTORY_ID}) whose class id is its
 * {@link ClassId}: the class states it once, and registers through its feature (see {@link Feature#classes()}).
 * A class whose wire form is a plain list of fields implements {@link FieldList} instead of writing it twice.
 */
public interface Identified extends IdentifiedDataSerializable {

    @Override
    default int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    default int getClassId() {
        return Serialization.classId(getClass());
    }
}
