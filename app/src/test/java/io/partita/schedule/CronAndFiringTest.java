package io.partita.schedule;

import com.hazelcast.internal.serialization.impl.SerializationConstants;
import io.partita.job.JobSpec;
import io.partita.job.JobType;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * When a cron fires, in UTC, and the firing's record and a recovered schedule crossing the wire without Java
 * serialization, every field with them.
 */
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
    void shouldSendARecordedFiringAndARecoveredScheduleAsIdentifiedDataSerializableWithEveryField() {
        RecordFiring firing = new RecordFiring(1, 2, 1, 3, 4, "nightly:1", "a note");
        RecoverSchedule recover = new RecoverSchedule(new Schedule("nightly", "0 0 * * *",
                new JobSpec(JobType.INTEREST, 5, 25, true), 7, 1_000, 3, 1, 1, "nightly:1", "a note"));
        for (Object value : List.of(firing, recover)) {
            assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                    WireSerialization.withoutJava().toData(value).getType());
            WireSerialization.roundTripEveryField(value);
        }
        // A firing that ran a job carries no note.
        WireSerialization.roundTrip(new RecordFiring(1, 2, 1, 0, 0, "nightly:1", null));
    }
}
