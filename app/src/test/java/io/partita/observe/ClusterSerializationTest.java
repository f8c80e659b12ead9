package io.partita.observe;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cluster feature's wire objects cross as IdentifiedDataSerializable under the registry's ids, unchanged: a
 * snapshot with every field set comes back with every field as it was.
 */
class ClusterSerializationTest {

    private final InternalSerializationService serialization = WireSerialization.withoutJava();

    @Test
    void shouldRoundTripAMemberSnapshot() {
        MemberSnapshot snapshot = new MemberSnapshot(UUID.randomUUID(), new int[] {3, 7, 270}, new long[] {10, 0, 5},
                1234, 56.5, -60_000);
        WireSerialization.assertEveryFieldSet(snapshot);
        MemberSnapshot back = roundTrip(snapshot);
        assertEquals(snapshot, back);
        assertEquals(-60_000, back.clockOffsetMillis());
        assertEquals(15, back.ownedAccounts());
    }

    @Test
    void shouldRoundTripTheSnapshotTaskUnderItsRegisteredId() {
        MemberSnapshotTask back = roundTrip(new MemberSnapshotTask());
        assertEquals(80, back.getClassId());
        assertEquals(81, roundTrip(new MemberSnapshot(UUID.randomUUID(), new int[0], new long[0], 0, 0, 0)).getClassId());
    }

    private <T extends IdentifiedDataSerializable> T roundTrip(T object) {
        assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE, serialization.toData(object).getType(),
                "not IdentifiedDataSerializable");
        return WireSerialization.roundTrip(serialization, object);
    }
}
