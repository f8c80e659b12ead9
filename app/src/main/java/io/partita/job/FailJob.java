package io.partita.job;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Ends a running job as FAILED with a reason; the partitions done stay counted.
 * <b>Threads:</b> runs on the partition thread of the job's owner, and may run again after a retry or a migration: a
 * job no longer running is answered as it is and not written, so a second run changes nothing. Deterministic: the time
 * and the reason travel in the processor. Its backup ({@link ReplaceValue}) stores the failed job on each backup
 * replica.
 */
final class FailJob extends ValueWriter<String, Job, Job> {

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
    public int getClassId() {
        return JobFeature.FAIL_JOB;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeString(reason);
        out.writeLong(at);
        out.writeLong(retentionMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        reason = in.readString();
        at = in.readLong();
        retentionMillis = in.readLong();
    }
}
