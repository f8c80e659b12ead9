package io.partita.cluster;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/** The IdentifiedDataSerializable constructors of the cluster feature, for {@link Serialization}'s factory. */
final class ClusterSerialization {

    private ClusterSerialization() {
    }

    static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.MEMBER_SNAPSHOT_TASK -> new MemberSnapshotTask();
            case Serialization.MEMBER_SNAPSHOT -> new MemberSnapshot();
            case Serialization.BACKED_UP_ENTRIES -> new BackedUpCalls.Entries();
            default -> null;
        };
    }
}
