package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Puts back a job read from a member's disk after a restart of the whole cluster ({@link JobDisk}), joined with the
 * copy the cluster holds (another disk's, or one written since) as a split-brain merge joins two sides
 * ({@link JobMergePolicy}): when the cluster's copy is as far or further, or is another run of the id, nothing
 * changes. A finished job gets what is left of its retention; one whose retention has passed is not put back, and
 * leaves the disks of its owner and backups, as it would have left the map.
 * Runs on the partition thread of the job's owner; a run again after a retry finds the job there and
 * writes nothing. Deterministic: the time and the retention travel in the processor. Its backup
 * ({@link ReplaceValue}, or {@link io.partita.node.RemoveValue} for a job left out) does the same on each backup
 * replica.
 */
@ClassId(70)
final class RecoverJob extends ValueWriter<String, Job, Job> implements FieldList {

    private static final JobMergePolicy MERGE = new JobMergePolicy();

    private Job job;
    private long now;
    private long retentionMillis;

    RecoverJob() {
    }

    RecoverJob(Job job, long now, long retentionMillis) {
        this.job = job;
        this.now = now;
        this.retentionMillis = retentionMillis;
    }

    @Override
    public Job process(Map.Entry<String, Job> entry) {
        Job current = entry.getValue();
        if (current != null && MERGE.join(job, current) == current) {
            return current;
        }
        if (job.running()) {
            return write(entry, job, 0);
        }
        long left = job.finishedAt() + retentionMillis - now;
        return write(entry, left > 0 ? job : null, left);
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        job = fields.object(job);
        now = fields.int64(now);
        retentionMillis = fields.int64(retentionMillis);
    }
}
