package io.partita.cluster;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The cluster feature's wire objects cross as IdentifiedDataSerializable under the registry's ids, unchanged. */
class ClusterSerializationTest {

    private final SerializationService serialization = serializationService();

    @Test
    void shouldRoundTripAMemberSnapshot() {
        MemberSnapshot snapshot = new MemberSnapshot(UUID.randomUUID(), new int[] {3, 7, 270}, new long[] {10, 0, 5},
                1234, 56.5);
        MemberSnapshot back = roundTrip(snapshot);
        assertEquals(snapshot, back);
        assertEquals(15, back.ownedAccounts());
    }

    @Test
    void shouldRoundTripTheSnapshotTaskUnderItsRegisteredId() {
        MemberSnapshotTask back = roundTrip(new MemberSnapshotTask());
        assertEquals(Serialization.MEMBER_SNAPSHOT_TASK, back.getClassId());
        assertInstanceOf(MemberSnapshotTask.class, Serialization.factory().create(Serialization.MEMBER_SNAPSHOT_TASK));
        assertInstanceOf(MemberSnapshot.class, Serialization.factory().create(Serialization.MEMBER_SNAPSHOT));
    }

    @SuppressWarnings("unchecked")
    private <T extends IdentifiedDataSerializable> T roundTrip(T object) {
        Data data = serialization.toData(object);
        assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE, data.getType(),
                "not IdentifiedDataSerializable");
        return (T) serialization.toObject(data);
    }

    private static SerializationService serializationService() {
        SerializationConfig config = new SerializationConfig();
        Serialization.register(config);
        return new DefaultSerializationServiceBuilder().setConfig(config).build();
    }
}
