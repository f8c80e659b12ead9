package io.partita.job;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * How the job feature's classes cross the wire: Compact for the values of the {@code jobs} and {@code schedules} maps
 * (flat fields, so queries and SQL read {@code type}, {@code state}, counters by name), IdentifiedDataSerializable for
 * the tasks and entry processors, with type ids from the job block of {@link Serialization}.
 */
public final class JobSerialization {

    public static final String JOB_TYPE = "partita.Job";
    public static final String SCHEDULE_TYPE = "partita.Schedule";

    private JobSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.JOB_PARTITION_TASK -> new PartitionTask();
            case Serialization.APPLY_JOB -> new ApplyJob();
            case Serialization.JOB_STEP -> new JobStep();
            case Serialization.RECORD_PARTITION -> new RecordPartition();
            case Serialization.CLAIM_COORDINATION -> new ClaimCoordination();
            case Serialization.FAIL_JOB -> new FailJob();
            case Serialization.REPLACE_VALUE -> new ReplaceValue<>();
            case Serialization.RECORD_FIRING -> new RecordFiring();
            case Serialization.JOB_MERGE -> new JobMergePolicy();
            case Serialization.SCHEDULE_MERGE -> new ScheduleMergePolicy();
            default -> null;
        };
    }

    public static List<CompactSerializer<?>> compactSerializers() {
        return List.of(new JobSerializer(), new ScheduleSerializer());
    }

    static void writeSpec(ObjectDataOutput out, JobSpec spec) throws IOException {
        out.writeString(spec.type().name());
        out.writeLong(spec.amount());
        out.writeInt(spec.rateBasisPoints());
        out.writeBoolean(spec.concurrent());
    }

    static JobSpec readSpec(ObjectDataInput in) throws IOException {
        return new JobSpec(JobType.valueOf(in.readString()), in.readLong(), in.readInt(), in.readBoolean());
    }

    static void writeTally(ObjectDataOutput out, JobTally tally) throws IOException {
        out.writeLong(tally.accounts());
        out.writeLong(tally.applied());
        out.writeLong(tally.rejected());
        out.writeLong(tally.skipped());
        out.writeLong(tally.moved());
        out.writeLong(tally.mismatches());
        out.writeStringArray(tally.mismatchIds().toArray(new String[0]));
        out.writeLong(tally.mergeConflicts());
    }

    static JobTally readTally(ObjectDataInput in) throws IOException {
        return new JobTally(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                Arrays.asList(in.readStringArray()), in.readLong());
    }

    private static void writeSpec(CompactWriter writer, JobSpec spec) {
        writer.writeString("type", spec.type().name());
        writer.writeInt64("amount", spec.amount());
        writer.writeInt32("rateBasisPoints", spec.rateBasisPoints());
        writer.writeBoolean("concurrent", spec.concurrent());
    }

    private static JobSpec readSpec(CompactReader reader) {
        return new JobSpec(JobType.valueOf(reader.readString("type")), reader.readInt64("amount"),
                reader.readInt32("rateBasisPoints"), reader.readBoolean("concurrent"));
    }

    static final class JobSerializer implements CompactSerializer<Job> {
        @Override
        public Job read(CompactReader reader) {
            String[] mismatchIds = reader.readArrayOfString("mismatchIds");
            JobTally tally = new JobTally(reader.readInt64("accountsProcessed"), reader.readInt64("applied"),
                    reader.readInt64("rejected"), reader.readInt64("skipped"), reader.readInt64("moved"),
                    reader.readInt64("mismatches"), mismatchIds == null ? List.of() : Arrays.asList(mismatchIds),
                    // A job stored before merge conflicts were counted reads as none.
                    reader.getFieldKind("mergeConflicts") == FieldKind.INT64
                            ? reader.readInt64("mergeConflicts") : 0);
            long[] done = reader.readArrayOfInt64("done");
            // A job stored before runs existed reads as run "0": only a later job of the same id tells them apart.
            String run = reader.getFieldKind("run") == FieldKind.STRING ? reader.readString("run") : "0";
            return new Job(reader.readString("id"), run, readSpec(reader), reader.readString("schedule"),
                    JobState.valueOf(reader.readString("state")), reader.readInt64("startedAt"),
                    reader.readInt64("finishedAt"), reader.readString("coordinator"),
                    done == null ? new BitSet() : BitSet.valueOf(done), tally, reader.readString("error"));
        }

        @Override
        public void write(CompactWriter writer, Job job) {
            writer.writeString("id", job.id());
            writer.writeString("run", job.run());
            writeSpec(writer, job.spec());
            writer.writeString("schedule", job.schedule());
            writer.writeString("state", job.state().name());
            writer.writeInt64("startedAt", job.startedAt());
            writer.writeInt64("finishedAt", job.finishedAt());
            writer.writeString("coordinator", job.coordinator());
            writer.writeArrayOfInt64("done", job.done().toLongArray());
            writer.writeInt32("partitionsDone", job.partitionsDone());
            JobTally tally = job.tally();
            writer.writeInt64("accountsProcessed", tally.accounts());
            writer.writeInt64("applied", tally.applied());
            writer.writeInt64("rejected", tally.rejected());
            writer.writeInt64("skipped", tally.skipped());
            writer.writeInt64("moved", tally.moved());
            writer.writeInt64("mismatches", tally.mismatches());
            writer.writeArrayOfString("mismatchIds", tally.mismatchIds().toArray(new String[0]));
            writer.writeInt64("mergeConflicts", tally.mergeConflicts());
            writer.writeString("error", job.error());
        }

        @Override
        public String getTypeName() {
            return JOB_TYPE;
        }

        @Override
        public Class<Job> getCompactClass() {
            return Job.class;
        }
    }

    static final class ScheduleSerializer implements CompactSerializer<Schedule> {
        @Override
        public Schedule read(CompactReader reader) {
            return new Schedule(reader.readString("name"), reader.readString("cron"), readSpec(reader),
                    reader.readInt64("createdAt"), reader.readInt64("lastFiredAt"), reader.readInt64("firings"),
                    reader.readInt64("missed"), reader.readInt64("skipped"), reader.readString("lastJobId"),
                    reader.readString("lastNote"));
        }

        @Override
        public void write(CompactWriter writer, Schedule schedule) {
            writer.writeString("name", schedule.name());
            writer.writeString("cron", schedule.cron());
            writeSpec(writer, schedule.job());
            writer.writeInt64("createdAt", schedule.createdAt());
            writer.writeInt64("lastFiredAt", schedule.lastFiredAt());
            writer.writeInt64("firings", schedule.firings());
            writer.writeInt64("missed", schedule.missed());
            writer.writeInt64("skipped", schedule.skipped());
            writer.writeString("lastJobId", schedule.lastJobId());
            writer.writeString("lastNote", schedule.lastNote());
        }

        @Override
        public String getTypeName() {
            return SCHEDULE_TYPE;
        }

        @Override
        public Class<Schedule> getCompactClass() {
            return Schedule.class;
        }
    }
}
