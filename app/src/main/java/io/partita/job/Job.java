package io.partita.job;

import io.micronaut.core.annotation.Nullable;
import io.partita.node.HazelcastConfigs;

import java.util.BitSet;
import java.util.Objects;

/**
 * The value of the {@code jobs} map: one job, its progress partition by partition and its result so far. Any node
 * answers {@code GET /jobs/{id}} from it, and whichever member coordinates the job (see {@link JobRunner}) reads from
 * it which partitions are still to do.
 *
 * <p>A partition's result is added exactly once: {@link RecordPartition} sets the partition's bit and adds its tally
 * in one step, and ignores a second report of the same partition (a task redone after a failover).
 *
 * @param run         this run of the id: a random token drawn when the job is started. Accounts remember the jobs that
 *                    processed them as {@code id/run} and the journal records a movement under {@code job/id/run}, so
 *                    a job started under the id of one that finished and expired is new to them (see
 *                    {@link JobRules#runKey}); the member that starts a job also knows its own write by it
 * @param schedule    the schedule that fired the job, or null when a client posted it
 * @param startedAt   epoch milliseconds
 * @param finishedAt  epoch milliseconds; 0 while it runs
 * @param coordinator the UUID of the member that submits its partition tasks; another member takes the job over
 *                    when that one leaves the cluster
 * @param done        the partitions already processed, by partition id
 * @param error       why it FAILED, or null
 */
public record Job(String id, String run, JobSpec spec, @Nullable String schedule, JobState state, long startedAt,
                  long finishedAt, String coordinator, BitSet done, JobTally tally, @Nullable String error) {

    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(state, "state");
        done = (BitSet) done.clone();
    }

    static Job start(String id, String run, JobSpec spec, @Nullable String schedule, long at, String coordinator) {
        return new Job(id, run, spec, schedule, JobState.RUNNING, at, 0, coordinator, new BitSet(), JobTally.EMPTY,
                null);
    }

    /** What the accounts this run processed remember it by, and what the type's guard holds while it runs. */
    String runKey() {
        return JobRules.runKey(id, run);
    }

    @Override
    public BitSet done() {
        return (BitSet) done.clone();
    }

    public JobType type() {
        return spec.type();
    }

    boolean isDone(int partition) {
        return done.get(partition);
    }

    public int partitionsDone() {
        return done.cardinality();
    }

    public boolean running() {
        return state == JobState.RUNNING;
    }

    /** This job with {@code partition} done and its tally added; COMPLETED at {@code at} once every partition is. */
    Job withPartition(int partition, JobTally partitionTally, long at) {
        BitSet next = done();
        next.set(partition);
        boolean complete = next.cardinality() == HazelcastConfigs.PARTITION_COUNT;
        return new Job(id, run, spec, schedule, complete ? JobState.COMPLETED : state, startedAt,
                complete ? at : finishedAt, coordinator, next, tally.plus(partitionTally), error);
    }

    Job withCoordinator(String member) {
        return new Job(id, run, spec, schedule, state, startedAt, finishedAt, member, done, tally, error);
    }

    Job failed(String reason, long at) {
        return new Job(id, run, spec, schedule, JobState.FAILED, startedAt, at, coordinator, done, tally, reason);
    }
}
