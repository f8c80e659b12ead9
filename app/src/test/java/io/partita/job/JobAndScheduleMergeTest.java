package io.partita.job;

import io.partita.schedule.Schedule;
import io.partita.schedule.ScheduleMergePolicy;
import org.junit.jupiter.api.Test;

import static io.partita.support.Merging.side;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The jobs and schedules maps' merges after a network split, as functions of the two sides' records. */
class JobAndScheduleMergeTest {

    private static final JobSpec FEE = new JobSpec(JobType.FEE, 100, 0, false);

    private final JobMergePolicy jobs = new JobMergePolicy();
    private final ScheduleMergePolicy schedules = new ScheduleMergePolicy();
    private final Job started = Job.start("fee-1", "run-a", FEE, null, 1_000L, "member-1");

    @Test
    void shouldKeepAJobOnlyTheOtherSideHasAndTheFurtherOfTwoRecordsOfOneRun() {
        Job twoDone = started.withPartition(0, JobTally.EMPTY, 2_000L).withPartition(1, JobTally.EMPTY, 2_000L);
        Job oneDone = started.withPartition(0, JobTally.EMPTY, 2_000L);
        Job failed = started.failed("broken", 3_000L);

        assertSame(started, jobs.merge(side(started), null), "no job is lost");
        assertSame(twoDone, jobs.merge(side(twoDone), side(oneDone)), "more partitions done");
        assertSame(twoDone, jobs.merge(side(oneDone), side(twoDone)), "never set back");
        assertSame(failed, jobs.merge(side(failed), side(twoDone)), "a finished record wins over a running one");
        assertSame(oneDone, jobs.merge(side(started.withPartition(5, JobTally.EMPTY, 2_000L)), side(oneDone)),
                "a tie keeps this side's");
    }

    @Test
    void shouldKeepThisSidesRunWhenEachSideStartedAJobUnderOneId() {
        Job other = Job.start("fee-1", "run-b", FEE, null, 1_000L, "member-2").withPartition(3, JobTally.EMPTY, 1L);

        assertSame(started, jobs.merge(side(other), side(started)));
    }

    @Test
    void shouldNeverFireAFiringTwiceAfterAMerge() {
        Schedule created = Schedule.create("nightly", "0 0 * * *", FEE, 1_000L);
        Schedule firedHere = created.fired(5_000L, 1, 0, 0, "nightly:5", null);
        Schedule firedThere = created.fired(9_000L, 2, 0, 0, "nightly:9", null);

        assertSame(created, schedules.merge(side(created), null), "a schedule only the other side has is kept");
        assertEquals(9_000L, ((Schedule) schedules.merge(side(firedThere), side(firedHere))).lastFiredAt(),
                "the later of the two last firings");
        assertSame(firedThere, schedules.merge(side(firedHere), side(firedThere)));

        Schedule redefined = Schedule.create("nightly", "0 12 * * *", FEE, 7_000L);
        Schedule merged = (Schedule) schedules.merge(side(redefined), side(firedThere));
        assertEquals("0 12 * * *", merged.cron(), "the later PUT's definition");
        assertEquals(9_000L, merged.lastFiredAt(), "with the firings either side accounted for");
    }
}
