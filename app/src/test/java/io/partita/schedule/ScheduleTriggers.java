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
        if (stopped != null) {
            stopped.close();
        }
        jobs.stop(member);
        return stopped == null ? 0 : stopped.started();
    }

    /**
     * Stops every trigger, letting a tick in progress finish, so that what they fired can be counted.
     *
     * @return the jobs they had started
     */
    long stopAll() {
        long started = 0;
        for (ScheduleTrigger trigger : triggers.values()) {
            trigger.close();
            started += trigger.started();
        }
        return started;
    }

    @Override
    public void close() {
        triggers.values().forEach(ScheduleTrigger::close);
        triggers.clear();
    }
}
