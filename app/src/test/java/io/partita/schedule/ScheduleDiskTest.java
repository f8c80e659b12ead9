package io.partita.schedule;

import io.partita.job.JobSpec;
import io.partita.job.JobType;
import io.partita.store.StoredRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A schedule as the disk keeps it comes back field for field; put back after a restart, it is joined with the
 * cluster's copy as a merge joins them: the later definition, with the later of the two last firings.
 */
class ScheduleDiskTest {

    private static final long AT = 1_700_000_000_000L;
    private static final JobSpec INTEREST = new JobSpec(JobType.INTEREST, 0, 25, true);

    @Test
    void shouldReadBackASchedulesDefinitionAndFirings() throws IOException {
        Schedule fresh = Schedule.create("nightly", "0 0 * * *", INTEREST, AT);
        assertEquals(fresh, readBack(fresh));
        Schedule fired = fresh.fired(AT + 60_000, 3, 1, 1, "nightly:1700000060",
                "Skipped the firing: job 'x' of type INTEREST was still running.");
        assertEquals(fired, readBack(fired));
    }

    @Test
    void shouldPutBackTheLaterDefinitionWithTheLaterLastFiring() {
        Schedule created = Schedule.create("nightly", "* * * * * *", INTEREST, AT);
        Schedule fired = created.fired(AT + 5_000, 5, 0, 0, "nightly:1700000005", null);
        var entry = new AbstractMap.SimpleEntry<String, Schedule>("nightly", null);

        new RecoverSchedule(fired).process(entry);
        assertSame(fired, entry.getValue(), "a schedule the cluster does not hold is put back");
        new RecoverSchedule(created).process(entry);
        assertSame(fired, entry.getValue(), "a copy that is behind changes nothing");

        Schedule replaced = Schedule.create("nightly", "0 * * * * *", INTEREST, AT + 1_000);
        new RecoverSchedule(replaced).process(entry);
        assertEquals(replaced.cron(), entry.getValue().cron(), "the later definition is kept");
        assertEquals(fired.lastFiredAt(), entry.getValue().lastFiredAt(), "no firing either copy counted runs again");
    }

    private static Schedule readBack(Schedule schedule) throws IOException {
        StoredRecord record = ScheduleDisk.KIND.record(schedule.name(), schedule);
        assertTrue(ScheduleDisk.KIND.owns(record.key()));
        byte[] key = Arrays.copyOfRange(record.key(), 1, record.key().length);
        assertEquals(schedule.name(), ScheduleDisk.KIND.readKey(new DataInputStream(new ByteArrayInputStream(key))));
        return ScheduleDisk.KIND.readValue(new DataInputStream(new ByteArrayInputStream(record.value())));
    }
}
