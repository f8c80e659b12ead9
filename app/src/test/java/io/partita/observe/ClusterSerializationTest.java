package io.partita.observe;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.node.Serialization;
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
        assertEquals(ObserveFeature.MEMBER_SNAPSHOT_TASK, back.getClassId());
        assertInstanceOf(MemberSnapshotTask.class, new ObserveFeature().classes()
                .get(ObserveFeature.MEMBER_SNAPSHOT_TASK).get());
        assertInstanceOf(MemberSnapshot.class, new ObserveFeature().classes().get(ObserveFeature.MEMBER_SNAPSHOT)
                .get());
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
        config.addDataSerializableFactory(Serialization.FACTORY_ID,
                id -> new ObserveFeature().classes().get(id).get());
        return new DefaultSerializationServiceBuilder().setConfig(config).build();
    }
}
