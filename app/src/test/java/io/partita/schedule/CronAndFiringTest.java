package io.partita.schedule;

import com.hazelcast.internal.serialization.impl.SerializationConstants;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** When a cron fires, in UTC, and the firing's record crossing the wire without Java serialization. */
class CronAndFiringTest {

    @Test
    void shouldListTheDueFiringsOfACronInUtcOldestFirst() {
        long at = 1_700_000_000_500L;   // 22:13:20.5 UTC
        assertEquals(List.of(1_700_000_001_000L, 1_700_000_002_000L, 1_700_000_003_000L),
                Cron.due("* * * * * *", at, 1_700_000_003_000L, 100));
        assertEquals(List.of(), Cron.due("* * * * * *", at, 1_700_000_000_900L, 100));
        assertEquals(2, Cron.due("* * * * * *", at, 1_700_000_010_000L, 2).size());
        assertEquals(1_700_006_400_000L, Cron.next("0 0 * * *", at));   // next midnight UTC
        assertEquals(-1, Cron.next("not a cron", at));
    }

    @Test
    void shouldSendARecordedFiringAsIdentifiedDataSerializable() {
        RecordFiring firing = new RecordFiring(1, 2, 1, 0, 0, "nightly:1", null);
        assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                WireSerialization.withoutJava().toData(firing).getType());
        WireSerialization.roundTrip(firing);
    }
}
