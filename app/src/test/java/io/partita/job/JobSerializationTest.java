package io.partita.job;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.Tail;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.RemoveValue;
import io.partita.node.ReplaceValue;
import io.partita.schedule.Schedule;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The job feature's wire formats through the node's own serialization config with Java serialization refused: the
 * values as Compact and every task and entry processor as IdentifiedDataSerializable, each, built with every field
 * set, coming back with every field as it was.
 */
class JobSerializationTest {

    private final WireSerialization.InMemorySchemas schemas = new WireSerialization.InMemorySchemas();
    private final InternalSerializationService serialization =
            WireSerialization.service(WireSerialization.nodeConfigWithoutJava(), schemas);

    private <T> T roundTrip(T value) {
        return WireSerialization.roundTrip(serialization, value);
    }

    private <T> T roundTripEveryField(T value) {
        return WireSerialization.roundTripEveryField(serialization, value);
    }

    private final JobSpec fee = new JobSpec(JobType.FEE, 100, 25, true);
    private final JournalEntry entry = new JournalEntry("a-1", "job/j-1/r1", TxType.FEE, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "j-1", true);
    private final JobTally tally = new JobTally(40, 30, 5, 5, 3000, 2, List.of("a-1", "a-2"), 3);

    /** A job with every field set: a scheduled run that failed, with partitions done and a tally. */
    private Job failedJob() {
        BitSet done = new BitSet();
        done.set(0);
        done.set(170);
        done.set(270);
        return new Job("j-1", "r1", fee, "nightly", JobState.RUNNING, 1_700_000_000_000L, 0, "member-1", done, tally,
                null).failed("broken", 1_700_000_001_000L);
    }

    @Test
    void shouldRoundTripJobsAndSchedulesWithCompact() {
        Job failed = failedJob();
        Job running = new Job("j-2", "r1", fee, null, JobState.RUNNING, 1_700_000_000_000L, 0, "member-1",
                new BitSet(), JobTally.EMPTY, null);
        Schedule schedule = new Schedule("nightly", "0 0 * * *", new JobSpec(JobType.INTEREST, 5, 25, true), 7, 1_000,
                3, 1, 1, "nightly:1", "a note");
        Schedule fresh = Schedule.create("nightly", "0 0 * * *", new JobSpec(JobType.INTEREST, 0, 25, false), 7);

        assertEquals(failed, roundTripEveryField(failed));
        assertEquals(3, roundTrip(failed).partitionsDone());
        assertEquals(running, roundTrip(running));
        assertEquals(schedule, roundTripEveryField(schedule));
        assertEquals(fresh, roundTrip(fresh));
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(failed).getType());
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(schedule).getType());

        Account account = new Account(900, 50, 3, 7, 1_000, Tail.encode(entry), List.of("j-1/r1", "j-2/r1"), 1);
        assertEquals(account, roundTripEveryField(account));
    }

    @Test
    void shouldBringBackEveryFieldOfEveryTaskAndEntryProcessorWithoutJava() {
        List<IdentifiedDataSerializable> all = List.of(
                new PartitionTask("j-1", "r1", 17, "p3", 64, 5, 86_400_000),
                new ApplyJob("j-1", "r1", fee, 42),
                JobStep.recorded(entry), JobStep.replayed(entry),
                new RecordPartition("r1", 17, tally, 42, 1000),
                new ClaimCoordination("member-1", "member-2"),
                new FailJob("broken", 42, 1000),
                new StartJob(failedJob()),
                new RecoverJob(failedJob(), 42, 1000),
                new ForgetJob(),
                new ReplaceValue<>(Map.of("j-1", "a value", "j-2", "another"), 5_000, JobFeature.JOBS),
                new RemoveValue<>(JobFeature.JOBS));
        for (IdentifiedDataSerializable value : all) {
            assertNotNull(roundTripEveryField(value));
            assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                    serialization.toData(value).getType(), value.getClass().getSimpleName());
        }
        assertEquals(JobStep.recorded(entry), roundTrip(JobStep.recorded(entry)));
        // The steps that carry no entry, and a replacement without a time to live or a disk, come back so.
        assertEquals(JobStep.skipped(), roundTrip(JobStep.skipped()));
        assertEquals(JobStep.missing(), roundTrip(JobStep.missing()));
        roundTrip(new ReplaceValue<>(Map.of("j-1", "a value"), 0));
    }

}
