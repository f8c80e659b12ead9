package io.partita.job;

import com.hazelcast.spi.merge.MergingValue;
import io.partita.node.ClassId;
import io.partita.node.ValueMergePolicy;

/**
 * How jobs merge after a network split heals: no job is lost, and none goes back. A job only one side holds is taken
 * as it is (the recovery of running jobs then drives it on this side). Of two records of the same run, a finished one
 * (COMPLETED or FAILED) wins over a running one, and of two running ones the one with more partitions done; on a tie
 * the side merged into keeps its own. Nothing is charged twice whichever record is kept: every account remembers the
 * runs that processed it, and a partition redone is a replay. Two different runs under one id (each side started a
 * job with the same id; split-brain protection prevents it) keep this side's.
 * Runs on the partition thread of the job's owner in the merged cluster, once per job the smaller side
 * brings. A plain function of the two values.
 */
@ClassId(68)
public final class JobMergePolicy extends ValueMergePolicy<Job, MergingValue<Job>> {

    @Override
    protected Job join(Job theirs, Job ours) {
        if (!theirs.run().equals(ours.run())) {
            return ours;
        }
        if (theirs.running() != ours.running()) {
            return theirs.running() ? ours : theirs;
        }
        return theirs.partitionsDone() > ours.partitionsDone() ? theirs : ours;
    }
}
