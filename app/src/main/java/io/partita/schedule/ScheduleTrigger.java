package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import io.micronaut.context.annotation.Context;
import io.partita.job.Job;
import io.partita.job.JobService;
import io.partita.job.JobSettings;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.Timers;
import io.partita.refusal.Refusal;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fires the schedules: each firing runs its job once across the cluster, and firing goes on when any one member is
 * lost. Each member evaluates the schedules whose entries it owns, one after another, on its own thread
 * ("partita-schedule-trigger"); a firing that passed while nobody could run it is counted as missed, not caught up.
 */
@Context
public final class ScheduleTrigger implements AutoCloseable {

    /*
     * Who triggers
     *
     * Each member looks only at the schedules whose entries it owns (localKeySet): the trigger of a schedule is the
     * owner of its partition, elected by the same partition table that places the accounts. For a due firing it starts
     * the job under an id derived from the schedule and the firing's time (Schedule.firingJobId), then accounts for the
     * firing with a compare-and-set on the schedule (RecordFiring). When the owner dies, the backup of the schedule is
     * promoted on another member, whose loop sees the firings now due at its next tick.
     *
     * Exactly once per firing
     *
     * Exactly once per firing does not rest on there being one trigger: during a migration two members may both
     * evaluate a schedule, and a member may die between starting a job and recording the firing. The job id makes the
     * start idempotent (the job map's putIfAbsent admits one job per firing), and the compare-and-set lets one
     * evaluation account for a firing; a firing whose job exists but was not recorded is counted by the next
     * evaluation. Firings that passed while nobody could run them (the whole cluster down, or a gap longer than the
     * failover) are counted as missed, not caught up: only the latest due firing runs.
     *
     * Firing job ids
     *
     * A firing's job id (<name>:<epoch second>) is one a client may also choose. A job found under it counts as the
     * firing's only when this schedule started it (Job.schedule() is its name); a job a client posted under that id did
     * whatever the client asked, so the firing is counted as missed, with a note naming the id. The id form stays
     * within the API's id characters on purpose: a firing's job must be readable at GET /jobs/{id}, and a character
     * clients could not send there is either refused by the path's id check or, as '/', splits the path.
     *
     * Why not a scheduled executor or a leader
     *
     * Hazelcast's durable IScheduledExecutorService has no cron (each firing would schedule the next as a new named
     * task, and finished one-shot tasks must be disposed of or they fill its capacity), and after a failover it re-runs
     * a task that may already have run, so the idempotent job id would be needed anyway. A FencedLock-elected leader
     * depends on the CP Subsystem (in unsafe mode, the default for one node, it is no safer than a partition), fails
     * over only when the dead holder's CP session expires (10 s and more, whole seconds of a per-second schedule lost),
     * and still needs the fenced record of firings against a paused old leader. The partition owner is already elected,
     * fails over as fast as the data does, and needs no extra subsystem.
     */

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleTrigger.class);
    /** Firings looked at per evaluation; beyond that (a long outage) the next evaluations go on counting them. */
    static final int MAX_DUE = 1_000;

    private final HazelcastInstance hazelcast;
    private final JobService jobs;
    private final IMap<String, Schedule> schedules;
    private final ScheduledExecutorService loop;
    private final AtomicLong started = new AtomicLong();

    ScheduleTrigger(HazelcastInstance hazelcast, JobService jobs, JobSettings settings) {
        this.hazelcast = hazelcast;
        this.jobs = jobs;
        this.schedules = ScheduleFeature.schedules(hazelcast);
        this.loop = Timers.single("partita-schedule-trigger");
        long tick = Math.max(10, settings.scheduleTick().toMillis());
        loop.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** The jobs this member's trigger started (tests add these up over the members). */
    long started() {
        return started.get();
    }

    private void tick() {
        try {
            long now = ClusterClock.now(hazelcast);
            for (String name : schedules.localKeySet()) {
                try {
                    evaluate(name, now);
                } catch (RuntimeException e) {
                    // Nothing was recorded, so the same firing is due again at the next tick (and runs at most once).
                    logFailure("schedule " + name, e);
                }
            }
        } catch (RuntimeException e) {
            logFailure("listing its schedules", e);
        }
    }

    private void logFailure(String what, RuntimeException e) {
        if (e instanceof HazelcastInstanceNotActiveException || !hazelcast.getLifecycleService().isRunning()) {
            return;
        }
        if (e instanceof Refusal refusal && refusal.isTransient()) {
            // A partition's data not back yet (a restart still recovering it from disk), say: expected, and brief.
            LOG.debug("Schedule trigger put off {} until the next tick: {}", what, refusal.detail());
        } else {
            LOG.warn("Schedule trigger failed on {}; it tries again at the next tick", what, e);
        }
    }

    private void evaluate(String name, long now) {
        Schedule schedule = schedules.get(name);
        if (schedule == null) {
            return;
        }
        List<Long> due = Cron.due(schedule.cron(), schedule.lastFiredAt(), now, MAX_DUE);
        if (due.isEmpty()) {
            return;
        }
        // Only the latest due firing runs; earlier ones ran already (their job exists) or were missed. When the list
        // was cut at MAX_DUE, the latest is not known yet, so nothing runs this time.
        boolean complete = due.size() < MAX_DUE;
        long ran = 0;
        long missed = 0;
        for (int i = 0; i < (complete ? due.size() - 1 : due.size()); i++) {
            if (jobs.find(Schedule.firingJobId(name, due.get(i))).filter(job -> firedBy(job, name)).isPresent()) {
                ran++;
            } else {
                missed++;
            }
        }
        long fireAt = due.get(due.size() - 1);
        long skipped = 0;
        String jobId = null;
        String note = null;
        if (complete) {
            String id = Schedule.firingJobId(name, fireAt);
            JobService.Attempt attempt = jobs.tryStart(id, schedule.job(), name);
            switch (attempt.outcome()) {
                case STARTED -> {
                    started.incrementAndGet();
                    ran++;
                    jobId = id;
                }
                case EXISTS -> {
                    if (firedBy(attempt.job(), name)) {
                        ran++;
                        jobId = id;
                    } else {
                        missed++;
                        note = "Missed the firing: its job id '" + id + "' is taken by a job this schedule did not "
                                + "start.";
                    }
                }
                case BUSY -> {
                    skipped++;
                    note = "Skipped the firing: job '" + attempt.other() + "' of type " + schedule.job().type()
                            + " was still running.";
                }
            }
        }
        BackedUpCalls.executeOnKey(hazelcast, schedules.getName(), name, new RecordFiring(schedule.lastFiredAt(),
                fireAt, ran, missed, skipped, jobId, note));
    }

    /** Whether {@code job} was started by the schedule {@code name} (not by a client who chose a firing's id). */
    private static boolean firedBy(Job job, String name) {
        return job != null && name.equals(job.schedule());
    }

    @PreDestroy
    @Override
    public void close() {
        Timers.stop(loop);
    }
}
