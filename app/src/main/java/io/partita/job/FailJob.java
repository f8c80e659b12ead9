package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Ends a running job as FAILED with a reason; the partitions done stay counted.
 * Runs on the partition thread of the job's owner, and may run again after a retry or a migration: a
 * job no longer running is answered as it is and not written, so a second run changes nothing. Deterministic: the time
 * and the reason travel in the processor. Its backup ({@link ReplaceValue}) stores the failed job on each backup
 * replica, and owner and backups write it to their disks ({@link JobDisk}).
 */
@ClassId(65)
final class FailJob extends ValueWriter<String, Job, Job> implements FieldList {

    private String reason;
    private long at;
    private long retentionMillis;

    FailJob() {
    }

    FailJob(String reason, long at, long retentionMillis) {
        this.reason = reason;
        this.at = at;
        this.retentionMillis = retentionMillis;
    }

    @Override
    public Job process(Map.Entry<String, Job> entry) {
        Job job = entry.getValue();
        if (job == null || !job.running()) {
            return job;
        }
        return write(entry, job.failed(reason, at), retentionMillis);
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        reason = fields.string(reason);
        at = fields.int64(at);
        retentionMillis = fields.int64(retentionMillis);
    }
}
