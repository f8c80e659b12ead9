package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.DiskRecords;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Jobs on each member's disk ({@link DiskRecords}), running and finished: every writer of the {@code jobs} map writes
 * the job it stored to the disks of the record's owner and backups ({@link StartJob}, {@link RecordPartition},
 * {@link ClaimCoordination}, {@link FailJob}). After a restart of the whole cluster a job that was running is back as
 * its record last said, naming a coordinator that is no longer a member, so the owner of its record adopts it
 * ({@link JobRunner}) and sends out the partitions not done; accounts remember the runs that processed them, so a
 * partition done again charges nothing twice.
 *
 * <p>A finished job is kept too, for the rest of its retention ({@code partita.jobs.retention}, counted from when it
 * finished, as in memory): it answers {@code GET /jobs/{id}} with its result, and it keeps its id taken, so that a
 * start sent again after the restart is refused as {@code job-exists} instead of running (and charging) as a new run,
 * and a schedule's firing whose job finished is counted as run, never fired again. Its record leaves the disks when
 * it expires from the map ({@link ForgetJob}, from the owner's expiry listener), or at the recovery that finds its
 * retention passed while the cluster was down.
 *
 * <p>Recovery joins a disk's job with the cluster's copy as a split-brain merge joins two sides
 * ({@link JobMergePolicy}, in {@link RecoverJob}): the further copy stays, a copy that is behind changes nothing.
 */
final class JobDisk extends DiskRecords.Named<Job> {

    private final long retentionMillis;

    /** @param retention how long a finished job stays ({@code partita.jobs.retention}) */
    JobDisk(Duration retention) {
        super('j', JobFeature.JOBS);
        this.retentionMillis = retention.toMillis();
    }


    @Override
    protected boolean writeValue(DataOutputStream out, Job job) throws IOException {
        out.writeByte(1);
        out.writeUTF(job.id());
        out.writeUTF(job.run());
        JobFeature.writeSpecToDisk(out, job.spec());
        out.writeUTF(job.schedule() == null ? "" : job.schedule());
        out.writeUTF(job.state().name());
        out.writeLong(job.startedAt());
        out.writeLong(job.finishedAt());
        out.writeUTF(job.coordinator());
        long[] done = job.done().toLongArray();
        out.writeShort(done.length);
        for (long word : done) {
            out.writeLong(word);
        }
        JobTally tally = job.tally();
        out.writeLong(tally.accounts());
        out.writeLong(tally.applied());
        out.writeLong(tally.rejected());
        out.writeLong(tally.skipped());
        out.writeLong(tally.moved());
        out.writeLong(tally.mismatches());
        out.writeByte(tally.mismatchIds().size());
        for (String id : tally.mismatchIds()) {
            out.writeUTF(id);
        }
        out.writeLong(tally.mergeConflicts());
        out.writeUTF(job.error() == null ? "" : job.error());
        return true;
    }

    @Override
    protected Job readValue(DataInputStream in) throws IOException {
        int format = in.readByte();
        if (format != 1) {
            throw new IOException("a job stored in an unknown format: " + format);
        }
        String id = in.readUTF();
        String run = in.readUTF();
        JobSpec spec = JobFeature.readSpecFromDisk(in);
        String schedule = in.readUTF();
        JobState state = JobState.valueOf(in.readUTF());
        long startedAt = in.readLong();
        long finishedAt = in.readLong();
        String coordinator = in.readUTF();
        long[] done = new long[in.readShort()];
        for (int i = 0; i < done.length; i++) {
            done[i] = in.readLong();
        }
        long accounts = in.readLong();
        long applied = in.readLong();
        long rejected = in.readLong();
        long skipped = in.readLong();
        long moved = in.readLong();
        long mismatches = in.readLong();
        int idCount = in.readByte();
        List<String> mismatchIds = new ArrayList<>(idCount);
        for (int i = 0; i < idCount; i++) {
            mismatchIds.add(in.readUTF());
        }
        JobTally tally = new JobTally(accounts, applied, rejected, skipped, moved, mismatches, mismatchIds,
                in.readLong());
        String error = in.readUTF();
        return new Job(id, run, spec, schedule.isEmpty() ? null : schedule, state, startedAt, finishedAt, coordinator,
                BitSet.valueOf(done), tally, error.isEmpty() ? null : error);
    }

    /** Each one joined with the cluster's copy, or left out (and forgotten) if its retention has passed. */
    @Override
    protected void recover(HazelcastInstance member, Map<String, Job> records) {
        long now = ClusterClock.now(member);
        records.forEach((id, job) -> BackedUpCalls.executeOnKey(member, JobFeature.JOBS, id,
                new RecoverJob(job, now, retentionMillis)));
    }
}
