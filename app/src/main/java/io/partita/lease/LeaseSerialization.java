package io.partita.lease;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

/** The IdentifiedDataSerializable constructors of the lease feature, for {@link Serialization}'s factory. */
public final class LeaseSerialization {

    private LeaseSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.LEASE_GROUP -> new LeaseGroup();
            case Serialization.LEASE_CALL -> new LeaseCall();
            case Serialization.LEASE_ANSWER -> new LeaseAnswer();
            case Serialization.FENCE_CHECK -> new FenceCheck();
            default -> null;
        };
    }
}
