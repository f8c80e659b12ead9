package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import io.partita.job.JobMembers;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ScheduleTrigger} on each member of a {@code TestCluster}, wired as a node wires it: over that member's
 * {@code JobService} from {@link JobMembers}. Close it before the job members, so that no trigger starts a job on a
 * stopped runner.
 */
final class ScheduleTriggers implements AutoCloseable {

    private final JobMembers jobs;
    private final Map<HazelcastInstance, ScheduleTrigger> triggers = new ConcurrentHashMap<>();

    ScheduleTriggers(JobMembers jobs) {
        this.jobs = jobs;
    }

    void on(HazelcastInstance member) {
        triggers.computeIfAbsent(member, m -> new ScheduleTrigger(m, jobs.on(m).jobs(), jobs.settings()));
    }

    /**
     * Stops the member's trigger and its job parts, as its process dying would.
     *
     * @return the jobs its trigger had started
     */
    long stop(HazelcastInstance member) {
        ScheduleTrigger stopped = triggers.remove(member);
        long started = stopped == null ? 0 : stopAndCount(stopped);
        jobs.stop(member);
        return started;
    }

    /**
     * Stops every trigger, letting a tick in progress finish, so that what they fired can be counted.
     *
     * @return the jobs they had started
     */
    long stopAll() {
        return triggers.values().stream().mapToLong(ScheduleTriggers::stopAndCount).sum();
    }

    private static long stopAndCount(ScheduleTrigger trigger) {
        trigger.close();
        return trigger.started();
    }

    @Override
    public void close() {
        stopAll();
        triggers.clear();
    }
}
