package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.cluster.Maps;
import io.partita.web.ApiException;
import jakarta.inject.Singleton;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Schedules as the API manages them: stored in the {@code schedules} map, fired by {@link ScheduleTrigger}. */
@Singleton
class ScheduleService {

    private final IMap<String, Schedule> schedules;

    ScheduleService(HazelcastInstance hazelcast) {
        this.schedules = Maps.schedules(hazelcast);
    }

    /**
     * Creates or replaces a schedule. Replacing starts it afresh: its first firing is the first cron time after now,
     * and its counters restart. A 400 naming {@code cron} when the expression is not valid or never fires.
     */
    Schedule put(String name, String cron, JobSpec job) {
        try {
            Cron.parse(cron);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("cron", "must be a cron expression of 5 fields (minute hour day-of-month "
                    + "month day-of-week) or 6 (seconds first) that fires at least once: " + reason(e));
        }
        Schedule schedule = Schedule.create(name, cron.trim(), job, System.currentTimeMillis());
        schedules.set(name, schedule);
        return schedule;
    }

    /** Micronaut's messages quote the expression and say what is wrong with it; cut to a sane length. */
    private static String reason(IllegalArgumentException e) {
        String message = e.getMessage() == null ? "not valid" : e.getMessage();
        return message.length() > 200 ? message.substring(0, 200) + "..." : message;
    }

    List<Schedule> list() {
        return schedules.values().stream().sorted(Comparator.comparing(Schedule::name)).toList();
    }

    Optional<Schedule> find(String name) {
        return Optional.ofNullable(schedules.get(name));
    }

    void delete(String name) {
        if (schedules.remove(name) == null) {
            throw ApiException.notFound("Schedule", name);
        }
    }
}
