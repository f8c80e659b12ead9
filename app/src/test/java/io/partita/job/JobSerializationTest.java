package io.partita.job;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
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
 * values as Compact, every task and entry processor as IdentifiedDataSerializable, and an account written before the
 * account had its job fields still reading.
 */
class JobSerializationTest {

    private final WireSerialization.InMemorySchemas schemas = new WireSerialization.InMemorySchemas();
    private final InternalSerializationService serialization =
            WireSerialization.service(WireSerialization.nodeConfigWithoutJava(), schemas);

    private <T> T roundTrip(T value) {
        return WireSerialization.roundTrip(serialization, value);
    }

    private final JobSpec fee = new JobSpec(JobType.FEE, 100, 0, true);
    private final JournalEntry entry = new JournalEntry("a-1", "job/j-1/r1", TxType.FEE, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "j-1");

    @Test
    void shouldRoundTripJobsAndSchedulesWithCompact() {
        BitSet done = new BitSet();
        done.set(0);
        done.set(170);
        done.set(270);
        Job job = new Job("j-1", "r1", fee, "nightly", JobState.RUNNING, 1_700_000_000_000L, 0, "member-1", done,
                new JobTally(40, 30, 5, 5, 3000, 2, List.of("a-1", "a-2"), 3), null);
        Job failed = job.failed("broken", 1_700_000_001_000L);
        Schedule schedule = Schedule.create("nightly", "0 0 * * *", new JobSpec(JobType.INTEREST, 0, 25, false), 7)
                .fired(1_000, 3, 1, 1, "nightly:1", "a note");

        assertEquals(job, roundTrip(job));
        assertEquals(3, roundTrip(job).partitionsDone());
        assertEquals(failed, roundTrip(failed));
        assertEquals(schedule, roundTrip(schedule));
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(job).getType());
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(schedule).getType());

        Account account = Account.open(1_000, 50).withJob("j-1/r1").withJob("j-2/r1");
        assertEquals(account, roundTrip(account));
    }

    @Test
    void shouldSerializeEveryTaskAndEntryProcessorWithoutJava() {
        List<IdentifiedDataSerializable> all = List.of(
                new PartitionTask("j-1", "r1", 17, "p3", 64, 0, 86_400_000),
                new ApplyJob("j-1", "r1", fee, 42),
                JobStep.recorded(entry), JobStep.replayed(entry), JobStep.skipped(), JobStep.missing(),
                new RecordPartition("r1", 17, new JobTally(1, 1, 0, 0, 100, 0, List.of()), 42, 1000),
                new ClaimCoordination("member-1", "member-2"),
                new FailJob("broken", 42, 1000),
                new ReplaceValue<>(Map.of("j-1", "a value", "j-2", "another"), 0));
        for (IdentifiedDataSerializable value : all) {
            assertNotNull(roundTrip(value));
            assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                    serialization.toData(value).getType(), value.getClass().getSimpleName());
        }
        assertEquals(JobStep.recorded(entry), roundTrip(JobStep.recorded(entry)));
    }

}
