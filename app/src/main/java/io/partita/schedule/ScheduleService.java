package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.job.JobSpec;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.PartitionSentinels;
import io.partita.node.RemoveValue;
import io.partita.node.ReplaceValue;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Schedules as the API manages them: stored in the {@code schedules} map, and on the disks of its owner and backups
 * ({@link ScheduleDisk}: a PUT and a DELETE are entry processors that write there too), fired by
 * {@link ScheduleTrigger}.
 * Called on the HTTP blocking pool, many requests at once; each call is one blocking map operation,
 * and the bean holds only the map's proxy, which is safe for any thread.
 */
@Singleton
class ScheduleService {

    private final HazelcastInstance hazelcast;
    private final IMap<String, Schedule> schedules;

    ScheduleService(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.schedules = ScheduleFeature.schedules(hazelcast);
    }

    /**
     * Creates or replaces a schedule. Replacing starts it afresh: its first firing is the first cron time after now,
     * and its counters restart. A PUT that repeats the schedule's cron and job changes nothing (a deployment that
     * applies its schedules again keeps their record) and answers the schedule as it is. Refused as {@code INVALID},
     * naming {@code cron}, when the expression is not valid or never fires.
     */
    Schedule put(String name, String cron, JobSpec job) {
        // A schedule created while its partition has no data would take the place of the one a restart brings back.
        PartitionSentinels.of(hazelcast).refuseIfLost("Schedule", name);
        try {
            Cron.parse(cron);
        } catch (IllegalArgumentException e) {
            // The parser's own words name its internals (classes, intervals, search limits): only the expression is
            // echoed, cut to a sane length.
            throw Refusal.invalidField("cron", "'" + shorten(cron.trim()) + "' is not a cron expression of 5 "
                    + "fields (minute hour day-of-month month day-of-week) or 6 (seconds first), in UTC, that fires "
                    + "at least once");
        }
        Schedule existing = schedules.get(name);
        if (existing != null && existing.cron().equals(cron.trim()) && existing.job().equals(job)) {
            return existing;
        }
        Schedule schedule = Schedule.create(name, cron.trim(), job, ClusterClock.now(hazelcast));
        BackedUpCalls.executeOnKey(hazelcast, schedules.getName(), name,
                ReplaceValue.of(name, schedule, 0, ScheduleFeature.SCHEDULES));
        return schedule;
    }

    private static String shorten(String cron) {
        return cron.length() > 100 ? cron.substring(0, 100) + "..." : cron;
    }

    List<Schedule> list() {
        return schedules.values().stream().sorted(Comparator.comparing(Schedule::name)).toList();
    }

    /**
     * The schedule, or empty when there is none; refused as partition-lost while its partition has no data (it may
     * exist).
     */
    Optional<Schedule> find(String name) {
        Schedule schedule = schedules.get(name);
        if (schedule == null) {
            PartitionSentinels.of(hazelcast).refuseIfLost("Schedule", name);
        }
        return Optional.ofNullable(schedule);
    }

    /** Deletes the schedule; refused as not found, or as partition-lost while its partition has no data. */
    void delete(String name) {
        if (!Boolean.TRUE.equals(BackedUpCalls.executeOnKey(hazelcast, schedules.getName(), name,
                new RemoveValue<>(ScheduleFeature.SCHEDULES)))) {
            PartitionSentinels.of(hazelcast).refuseIfLost("Schedule", name);
            throw Refusal.notFound("Schedule", name);
        }
    }
}
