package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import io.partita.job.JobFeature;
import io.partita.job.JobSpec;
import io.partita.node.BackedUpCalls;
import io.partita.node.DiskRecords;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Schedules on each member's disk ({@link DiskRecords}): a schedule's definition with the record of its firings,
 * written by every writer of the {@code schedules} map (a PUT, each firing's {@link RecordFiring}) on the disks of
 * the schedule's owner and backups, and deleted from them with the schedule.
 *
 * <p>After a restart of the whole cluster a schedule fires on from its last firing recorded, by the rules that apply
 * after any gap ({@link ScheduleTrigger}): the firings that passed while the cluster was down are counted as missed,
 * and the latest one due runs. A firing whose job was started before the stop but not yet recorded finds its job back
 * (the job is kept on disk too, and no job starts while the partition of its id has no data yet), so it is counted as
 * run, not fired again.
 *
 * <p>Recovery joins a disk's schedule with the cluster's copy as a split-brain merge joins two sides
 * ({@link ScheduleMergePolicy}, in {@link RecoverSchedule}): the later definition, with the later of the two last
 * firings.
 */
final class ScheduleDisk extends DiskRecords.Named<Schedule> {

    static final ScheduleDisk KIND = new ScheduleDisk();

    private ScheduleDisk() {
        super('s', ScheduleFeature.SCHEDULES);
    }


    @Override
    protected boolean writeValue(DataOutputStream out, Schedule schedule) throws IOException {
        out.writeByte(1);
        out.writeUTF(schedule.name());
        out.writeUTF(schedule.cron());
        JobFeature.writeSpecToDisk(out, schedule.job());
        out.writeLong(schedule.createdAt());
        out.writeLong(schedule.lastFiredAt());
        out.writeLong(schedule.firings());
        out.writeLong(schedule.missed());
        out.writeLong(schedule.skipped());
        out.writeUTF(schedule.lastJobId() == null ? "" : schedule.lastJobId());
        out.writeUTF(schedule.lastNote() == null ? "" : schedule.lastNote());
        return true;
    }

    @Override
    protected Schedule readValue(DataInputStream in) throws IOException {
        int format = in.readByte();
        if (format != 1) {
            throw new IOException("a schedule stored in an unknown format: " + format);
        }
        String name = in.readUTF();
        String cron = in.readUTF();
        JobSpec job = JobFeature.readSpecFromDisk(in);
        long createdAt = in.readLong();
        long lastFiredAt = in.readLong();
        long firings = in.readLong();
        long missed = in.readLong();
        long skipped = in.readLong();
        String lastJobId = in.readUTF();
        String lastNote = in.readUTF();
        return new Schedule(name, cron, job, createdAt, lastFiredAt, firings, missed, skipped,
                lastJobId.isEmpty() ? null : lastJobId, lastNote.isEmpty() ? null : lastNote);
    }

    /** Each one joined with the cluster's copy. */
    @Override
    protected void recover(HazelcastInstance member, Map<String, Schedule> records) {
        records.forEach((name, schedule) -> BackedUpCalls.executeOnKey(member, ScheduleFeature.SCHEDULES, name,
                new RecoverSchedule(schedule)));
    }
}
