package io.partita.schedule;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.job.JobFeature;
import io.partita.job.JobSpec;
import io.partita.job.JobType;
import io.partita.node.CompactCodec;
import io.partita.node.DiskRecords;
import io.partita.node.Feature;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.function.Supplier;

/**
 * The schedule feature's part of a member: the schedules map (a schedule's last firing survives the loss of a member,
 * and a stop of every member: {@link ScheduleDisk}; after a split no firing runs twice, ScheduleMergePolicy), Compact
 * for its values, and the classes of its ids.
 */
@Singleton
public final class ScheduleFeature implements Feature {

    public static final String SCHEDULES = "schedules";
    public static final String SCHEDULE_TYPE = "partita.Schedule";

    public static IMap<String, Schedule> schedules(HazelcastInstance hazelcast) {
        return hazelcast.getMap(SCHEDULES);
    }

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(RecordFiring::new, ScheduleMergePolicy::new, RecoverSchedule::new);
    }

    @Override
    public void configure(Config config, Setup setup) {
        config.addMapConfig(setup.protectedMap(SCHEDULES, ScheduleMergePolicy.class));
        config.getSerializationConfig().getCompactSerializationConfig().addSerializer(SCHEDULE_CODEC);
        DiskRecords.register(config, ScheduleDisk.KIND);
    }

    static final CompactCodec<Schedule> SCHEDULE_CODEC = CompactCodec.of(SCHEDULE_TYPE,
            Schedule.class, ScheduleFeature::readSchedule, ScheduleFeature::writeSchedule,
            Schedule.create("sample", "* * * * * *", new JobSpec(JobType.FEE, 0, 0, true), 0));

    private static Schedule readSchedule(CompactReader reader) {
        return new Schedule(reader.readString("name"), reader.readString("cron"), JobFeature.readSpec(reader),
                reader.readInt64("createdAt"), reader.readInt64("lastFiredAt"), reader.readInt64("firings"),
                reader.readInt64("missed"), reader.readInt64("skipped"), reader.readString("lastJobId"),
                reader.readString("lastNote"));
    }

    private static void writeSchedule(CompactWriter writer, Schedule schedule) {
        writer.writeString("name", schedule.name());
        writer.writeString("cron", schedule.cron());
        JobFeature.writeSpec(writer, schedule.job());
        writer.writeInt64("createdAt", schedule.createdAt());
        writer.writeInt64("lastFiredAt", schedule.lastFiredAt());
        writer.writeInt64("firings", schedule.firings());
        writer.writeInt64("missed", schedule.missed());
        writer.writeInt64("skipped", schedule.skipped());
        writer.writeString("lastJobId", schedule.lastJobId());
        writer.writeString("lastNote", schedule.lastNote());
    }
}
