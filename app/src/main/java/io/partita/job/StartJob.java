package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Stores a new job under its id unless the id is taken, as {@code putIfAbsent} would: answers null when it stored this
 * one, else the job already stored (an earlier attempt of this start, or another job under the id).
 * Runs on the partition thread of the job's owner; a run again after a retry or a migration finds the
 * job it stored and answers it, as it answers any taken id. Its backup ({@link ReplaceValue}) stores the job on each
 * backup replica, and owner and backups write it to their disks ({@link JobDisk}).
 */
@ClassId(66)
final class StartJob extends ValueWriter<String, Job, Job> implements FieldList {

    private Job job;

    StartJob() {
    }

    StartJob(Job job) {
        this.job = job;
    }

    @Override
    public Job process(Map.Entry<String, Job> entry) {
        Job stored = entry.getValue();
        if (stored != null) {
            return stored;
        }
        write(entry, job, 0);
        return null;
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        job = fields.object(job);
    }
}
