package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/**
 * Makes {@code claimant} the coordinator of a running job if {@code expected} (a member that left) still is: a
 * compare-and-set on the job's partition thread, so of the members that notice the loss only one takes the job over.
 * Idempotent: when the claimant already coordinates the job (a claim whose answer was lost and that Hazelcast sent
 * again, after the first one had been applied) the answer is true again, and nothing is written.
 * Runs on the partition thread of the job's owner, and may run again after a retry or a migration
 * (answered as above); its backup ({@link ReplaceValue}) stores the job it wrote on each backup replica's partition
 * thread, and owner and backups write it to their disks ({@link JobDisk}).
 */
@ClassId(64)
final class ClaimCoordination extends ValueWriter<String, Job, Boolean> implements FieldList {

    private String expected;
    private String claimant;

    ClaimCoordination() {
    }

    ClaimCoordination(String expected, String claimant) {
        this.expected = expected;
        this.claimant = claimant;
    }

    @Override
    public Boolean process(Map.Entry<String, Job> entry) {
        Job job = entry.getValue();
        if (job == null || !job.running()) {
            return false;
        }
        if (Objects.equals(job.coordinator(), claimant)) {
            return true;
        }
        if (!Objects.equals(job.coordinator(), expected)) {
            return false;
        }
        write(entry, job.withCoordinator(claimant), 0);
        return true;
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        expected = fields.string(expected);
        claimant = fields.string(claimant);
    }
}
