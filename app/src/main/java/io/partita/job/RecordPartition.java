package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Marks one partition of a job done and adds its tally, unless it is already done; completes the job when it was the
 * last one. A report from another run of the id (a task that outlived its job's expiry) is ignored. A finished job
 * gets the retention as its time-to-live in the same step, backup included.
 * Runs on the partition thread of the job's owner, so two reports of one partition (a redone task)
 * cannot both count; a run again after a retry or a migration finds the partition done and writes nothing.
 * Deterministic: the time travels in the processor. Its backup ({@link ReplaceValue}) stores the job it wrote, with
 * its time-to-live, on each backup replica, and owner and backups write it to their disks ({@link JobDisk}).
 */
@ClassId(63)
final class RecordPartition extends ValueWriter<String, Job, Job> implements FieldList {

    private String run;
    private int partition;
    private JobTally tally;
    private long at;
    private long retentionMillis;

    RecordPartition() {
    }

    RecordPartition(String run, int partition, JobTally tally, long at, long retentionMillis) {
        this.run = run;
        this.partition = partition;
        this.tally = tally;
        this.at = at;
        this.retentionMillis = retentionMillis;
    }

    @Override
    public Job process(Map.Entry<String, Job> entry) {
        Job job = entry.getValue();
        if (job == null || !job.running() || !job.run().equals(run) || job.isDone(partition)) {
            return job;
        }
        Job next = job.withPartition(partition, tally, at);
        return write(entry, next, next.running() ? 0 : retentionMillis);
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        run = fields.string(run);
        partition = fields.int32(partition);
        tally = fields.value(tally, JobFeature::writeTally, JobFeature::readTally);
        at = fields.int64(at);
        retentionMillis = fields.int64(retentionMillis);
    }
}
