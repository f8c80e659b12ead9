package io.partita.locking;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

/** The IdentifiedDataSerializable constructors of the locking feature, for {@link Serialization}'s factory. */
public final class LockingSerialization {

    private LockingSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return typeId == Serialization.FENCED_WRITE ? new FencedWrite() : null;
    }
}
