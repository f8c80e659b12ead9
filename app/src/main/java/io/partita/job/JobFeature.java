package io.partita.job;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.IndexConfig;
import com.hazelcast.config.IndexType;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.node.BackedUpCalls;
import io.partita.node.CompactCodec;
import io.partita.node.DiskRecords;
import io.partita.node.Feature;
import io.partita.node.MemberDisk;
import jakarta.inject.Singleton;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;

/**
 * The job feature's part of a member: the jobs and job-guards maps, the executor of the per-partition tasks, Compact
 * for the values of the {@code jobs} map (flat fields, so queries and SQL read {@code type}, {@code state}, counters
 * by name), IdentifiedDataSerializable for the tasks and entry processors, from the job block of ids, and the jobs a
 * member keeps on its disk ({@link JobDisk}).
 */
@Singleton
public final class JobFeature implements Feature {

    /** Jobs by id, with their per-partition progress; a finished job expires after the retention. */
    public static final String JOBS = "jobs";
    /** One entry per job type while a job of that type runs without {@code concurrent}: its id. */
    public static final String JOB_GUARDS = "job-guards";
    /** The executor the per-partition job tasks run on, on each partition's owner. */
    public static final String JOB_EXECUTOR = "partita-jobs";
    /** Threads per member that run the per-partition tasks of jobs. */
    public static final int JOB_THREADS = 4;
    public static final String JOB_TYPE = "partita.Job";

    private final JobSettings settings;

    public JobFeature(JobSettings settings) {
        this.settings = settings;
    }

    public static IMap<String, Job> jobs(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOBS);
    }

    static IMap<String, String> jobGuards(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOB_GUARDS);
    }

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(PartitionTask::new, ApplyJob::new, JobStep::new, RecordPartition::new, ClaimCoordination::new,
                FailJob::new, StartJob::new, JobMergePolicy::new, RecoverJob::new, ForgetJob::new);
    }

    /**
     * Jobs keep one synchronous backup like the ledger's, so a job's progress survives the loss of a member. Every
     * member looks up the RUNNING jobs among its own entries at each tick of its job runner. The minority side of a
     * split neither starts nor advances anything (split-brain protection); after a split no job is lost or set back
     * (JobMergePolicy). The job executor's threads mostly wait on entry processors at the partition threads, so a
     * few per member keep every partition thread busy without crowding out traffic. Jobs are kept on disk; their
     * guards are not: a restarted job's type is found running by its record (see {@link JobService}).
     */
    @Override
    public void configure(Config config, Setup setup) {
        config.addMapConfig(setup.protectedMap(JOBS, JobMergePolicy.class)
                .addIndexConfig(new IndexConfig(IndexType.HASH, "state")));
        config.addMapConfig(setup.protectedMap(JOB_GUARDS, null));
        config.addExecutorConfig(new ExecutorConfig(JOB_EXECUTOR).setPoolSize(JOB_THREADS));
        config.getSerializationConfig().getCompactSerializationConfig().addSerializer(JOB_CODEC);
        DiskRecords.register(config, new JobDisk(settings.retention()));
    }

    /**
     * On a member with a disk: a finished job that expires from the map (its retention ended) leaves the disks of its
     * owner and backups too ({@link ForgetJob}). The owner hears of the expiry; a member that stops before it has
     * sent the processor leaves the record until a recovery finds its retention passed.
     */
    @Override
    public void start(HazelcastInstance member) {
        if (MemberDisk.of(member).onDisk()) {
            IMap<String, Job> jobs = jobs(member);
            jobs.addLocalEntryListener((EntryExpiredListener<String, Job>) expired ->
                    BackedUpCalls.submitToKey(member, JOBS, expired.getKey(), new ForgetJob()));
        }
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

    /** A job spec as a member's disk keeps it (a job's, or a schedule's job). */
    public static void writeSpecToDisk(DataOutput out, JobSpec spec) throws IOException {
        out.writeUTF(spec.type().name());
        out.writeLong(spec.amount());
        out.writeInt(spec.rateBasisPoints());
        out.writeBoolean(spec.concurrent());
    }

    public static JobSpec readSpecFromDisk(DataInput in) throws IOException {
        return new JobSpec(JobType.valueOf(in.readUTF()), in.readLong(), in.readInt(), in.readBoolean());
    }

    /** A job spec's fields in a Compact value (a job's, or a schedule's job). */
    public static void writeSpec(CompactWriter writer, JobSpec spec) {
        writer.writeString("type", spec.type().name());
        writer.writeInt64("amount", spec.amount());
        writer.writeInt32("rateBasisPoints", spec.rateBasisPoints());
        writer.writeBoolean("concurrent", spec.concurrent());
    }

    public static JobSpec readSpec(CompactReader reader) {
        return new JobSpec(JobType.valueOf(reader.readString("type")), reader.readInt64("amount"),
                reader.readInt32("rateBasisPoints"), reader.readBoolean("concurrent"));
    }

    static final CompactCodec<Job> JOB_CODEC = CompactCodec.of(JOB_TYPE,
            Job.class, JobFeature::readJob, JobFeature::writeJob,
            Job.start("sample", "sample", new JobSpec(JobType.FEE, 0, 0, true), null, 0, "sample"));

    private static Job readJob(CompactReader reader) {
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

    private static void writeJob(CompactWriter writer, Job job) {
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
}
