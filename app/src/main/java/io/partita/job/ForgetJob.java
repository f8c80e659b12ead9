package io.partita.job;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ValueWriter;

import java.util.Map;

/**
 * Deletes the record of a job that expired from the map (its retention ended) from the disks of its owner and backups
 * ({@link JobDisk}); a job stored under the id since is left alone.
 * Runs on the partition thread of the job's owner, sent by the owner's expiry listener
 * ({@link JobFeature#start}); its backup ({@link io.partita.node.RemoveValue}) deletes the record on each backup
 * replica. A run again finds nothing more to delete.
 */
@ClassId(71)
final class ForgetJob extends ValueWriter<String, Job, Void> implements FieldList {

    @Override
    public Void process(Map.Entry<String, Job> entry) {
        if (entry.getValue() == null) {
            write(entry, null, 0);
        }
        return null;
    }

    @Override
    protected String map() {
        return JobFeature.JOBS;
    }

    @Override
    public void fields(Fields fields) {
        // Nothing travels but the key.
    }
}
