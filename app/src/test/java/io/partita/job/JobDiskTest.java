package io.partita.job;

import io.partita.store.StoredRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job as the disk keeps it comes back field for field, running or finished; put back after a restart, it is joined
 * with the cluster's copy as a merge joins them, and a finished one whose retention passed is not put back.
 */
class JobDiskTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final long RETENTION = Duration.ofHours(1).toMillis();
    private static final JobDisk KIND = new JobDisk(Duration.ofMillis(RETENTION));
    private static final JobSpec FEE = new JobSpec(JobType.FEE, 100, 0, false);

    private final Job running = Job.start("nightly:1700000000", "r1", FEE, "nightly", NOW, "member-a")
            .withPartition(3, new JobTally(5, 4, 1, 0, 400, 0, List.of()), NOW + 10)
            .withPartition(270, new JobTally(2, 2, 0, 0, 200, 0, List.of()), NOW + 20);

    @Test
    void shouldReadBackARunningAndAFinishedJobFieldForField() throws IOException {
        assertEquals(running, readBack("nightly:1700000000", running));

        Job audited = Job.start("audit-1", "r7", new JobSpec(JobType.AUDIT, 0, 0, true), null, NOW, "member-b")
                .withPartition(0, JobTally.audited(3, List.of("acc-9", "acc-2"), 1), NOW + 5)
                .failed("Partition 1 failed 5 times; the coordinator's log has the cause.", NOW + 30);
        assertEquals(audited, readBack("audit-1", audited));
        assertEquals(List.of("acc-2", "acc-9"), readBack("audit-1", audited).tally().mismatchIds());
    }

    @Test
    void shouldPutBackTheFurtherCopyAndLeaveOutAJobWhoseRetentionPassed() {
        var entry = new AbstractMap.SimpleEntry<String, Job>(running.id(), null);
        assertSame(running, new RecoverJob(running, NOW + 100, RETENTION).process(entry));
        assertSame(running, entry.getValue(), "a job the cluster does not hold is put back");

        Job behind = Job.start(running.id(), "r1", FEE, "nightly", NOW, "member-a");
        new RecoverJob(behind, NOW + 100, RETENTION).process(entry);
        assertSame(running, entry.getValue(), "a copy with fewer partitions done changes nothing");

        Job failed = running.failed("stopped", NOW + 50);
        new RecoverJob(failed, NOW + 100, RETENTION).process(entry);
        assertSame(failed, entry.getValue(), "a finished copy wins over a running one");

        Job otherRun = Job.start(running.id(), "r2", FEE, "nightly", NOW, "member-a");
        new RecoverJob(otherRun, NOW + 100, RETENTION).process(entry);
        assertSame(failed, entry.getValue(), "another run of the id leaves the cluster's alone");

        var gone = new AbstractMap.SimpleEntry<String, Job>(running.id(), null);
        new RecoverJob(failed, NOW + 50 + RETENTION, RETENTION).process(gone);
        assertNull(gone.getValue(), "a job whose retention passed while the cluster was down stays gone");
    }

    private static Job readBack(String id, Job job) throws IOException {
        StoredRecord record = KIND.record(id, job);
        assertTrue(KIND.owns(record.key()));
        byte[] key = Arrays.copyOfRange(record.key(), 1, record.key().length);
        assertEquals(id, KIND.readKey(new DataInputStream(new ByteArrayInputStream(key))));
        return KIND.readValue(new DataInputStream(new ByteArrayInputStream(record.value())));
    }
}
