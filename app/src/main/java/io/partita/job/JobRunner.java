package io.partita.job;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.micronaut.context.annotation.Context;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.HazelcastConfigs;
import io.partita.node.PartitionKeys;
import io.partita.node.Timers;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * This member's part in running jobs: it coordinates the jobs it started, adopts running jobs whose coordinator left
 * the cluster, and takes on running jobs that name it but that it does not drive. A coordinated job gets one
 * {@link PartitionTask} per partition not yet done, sent again after a failure, and is FAILED once one partition has
 * failed {@link #MAX_ATTEMPTS} times with an error that is not transient.
 *
 * <p><b>Threads:</b> one thread ("partita-job-runner") runs the ticks and every decision. {@link #start} (on the HTTP
 * blocking pool or the schedule trigger) only registers the job and hands it to that thread; task callbacks (on
 * Hazelcast's threads) only take their partition out of the in-flight set and hand the rest to it. The jobs it
 * coordinates and their partitions in flight are concurrent maps; the running gauge counts the jobs on the scraping
 * thread.
 */
@Context
final class JobRunner implements AutoCloseable {

    /*
     * Coordinator protocol
     *
     * The coordinator of a job (the member that accepted it) sends one PartitionTask per partition not yet done to that
     * partition's owner, and sends it again when it fails; the tasks run on the owners and record their partition in
     * the job themselves. Each tick (partita.jobs.tick) the coordinator re-reads the job and sends what is neither done
     * nor in flight, so a partition whose owner died is simply sent again and lands on the new owner.
     *
     * Adoption
     *
     * Every member also looks, each tick, at the RUNNING jobs whose records it owns (a local query), and adopts one
     * whose coordinator is no longer a member, with a compare-and-set on the job (ClaimCoordination): the job's record
     * has exactly one owner, so exactly one member adopts it, and it does so within a tick or two of the member's
     * removal. The adopter resends every partition not done; tasks the old coordinator had in flight may still finish,
     * and the duplicates are harmless (a partition counts once, an account is processed once). After a restart of the
     * whole cluster from disk (JobDisk) every running job names a coordinator that is gone, and is adopted the same
     * way.
     *
     * Undriven jobs
     *
     * A job can also name this member as its coordinator without this member driving it: its start stored the record
     * but did not learn so (the write's answer was lost and the retried write found the record, or the backup did not
     * confirm in time and the start answered 503), or the member that started it gave up before handing it over. The
     * owner of the record cannot tell (the coordinator is alive), so each tick this member also asks the whole cluster
     * for the RUNNING jobs that name it (an indexed query on state) and takes on those it is not driving. Without that,
     * such a job would stay RUNNING for ever, and hold its type's guard: every later job of the type would be refused
     * with 409 and every firing of a schedule of the type skipped.
     *
     * Meters
     *
     * The coordinator counts a job's start, its accounts as its tally grows (read at each tick, so a partition redone
     * after a failover is not counted twice), and its end with its outcome and duration (JobMeters); the running gauge
     * is the number of jobs it drives.
     *
     * Why not pull
     *
     * Every member could instead pull its own partitions of every job. Pushing from one coordinator reads the job once
     * per tick instead of every member reading every job; a partition normally gets exactly one task; and failed
     * attempts are counted in one place, which is what lets a job fail instead of retrying a broken partition forever.
     */

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    /** Attempts of one partition, failing with an error that is not transient, before the job is FAILED. */
    static final int MAX_ATTEMPTS = 5;

    private final HazelcastInstance hazelcast;
    private final JobSettings settings;
    private final JobMeters meters;
    private final IMap<String, Job> jobs;
    private final IExecutorService executor;
    private final String self;
    /** The jobs this member drives: added to by {@link #start} and the loop, removed from by the loop only. */
    private final Map<String, Coordination> coordinated = new ConcurrentHashMap<>();
    private final ScheduledExecutorService loop;

    /**
     * The partitions of one job with a task in flight, the failed attempts per partition, and the accounts of the
     * job's tally already counted in the meters.
     */
    private static final class Coordination {
        /** Added to on the loop thread; removed from by the task callbacks (Hazelcast's threads) or a failed submit. */
        final Set<Integer> inFlight = ConcurrentHashMap.newKeySet();
        /** Only the loop thread touches it. */
        final Map<Integer, Integer> attempts = new ConcurrentHashMap<>();
        /** Only the loop thread touches it. */
        long accountsCounted;

        Coordination(long accountsCounted) {
            this.accountsCounted = accountsCounted;
        }
    }

    JobRunner(HazelcastInstance hazelcast, JobSettings settings, JobMeters meters) {
        this.hazelcast = hazelcast;
        this.settings = settings;
        this.meters = meters;
        this.jobs = JobFeature.jobs(hazelcast);
        this.executor = hazelcast.getExecutorService(JobFeature.JOB_EXECUTOR);
        this.self = hazelcast.getCluster().getLocalMember().getUuid().toString();
        this.loop = Timers.single("partita-job-runner");
        meters.runningFrom(coordinated::size);
        long tick = Math.max(10, settings.tick().toMillis());
        loop.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** The id a job records as its coordinator when this member coordinates it. */
    String memberId() {
        return self;
    }

    /** Takes on a job this member just started and stored: its tasks go out now, not at the next tick. */
    void start(Job job) {
        meters.started(job.type().name());
        coordinated.putIfAbsent(job.id(), new Coordination(0));
        onLoop(() -> drive(job.id()));
    }

    private void tick() {
        try {
            adoptOrphans();
        } catch (RuntimeException e) {
            logTickFailure("looking for orphaned jobs", e);
        }
        try {
            takeOnUndriven();
        } catch (RuntimeException e) {
            logTickFailure("looking for jobs that name it but that it does not drive", e);
        }
        for (String jobId : coordinated.keySet()) {
            try {
                drive(jobId);
            } catch (RuntimeException e) {
                logTickFailure("driving job " + jobId, e);
            }
        }
    }

    private void adoptOrphans() {
        Set<String> members = hazelcast.getCluster().getMembers().stream()
                .map(Member::getUuid).map(Object::toString).collect(Collectors.toSet());
        for (String jobId : jobs.localKeySet(Predicates.equal("state", JobState.RUNNING.name()))) {
            if (coordinated.containsKey(jobId)) {
                continue;
            }
            Job job = jobs.get(jobId);
            if (job != null && job.running() && !members.contains(job.coordinator())
                    && Boolean.TRUE.equals(BackedUpCalls.executeOnKey(hazelcast, jobs.getName(), jobId,
                            new ClaimCoordination(job.coordinator(), self)))) {
                LOG.info("Adopted job {}: its coordinator {} left the cluster", jobId, job.coordinator());
                // Accounts counted so far were counted by the member that left (its meters left with it).
                coordinated.putIfAbsent(jobId, new Coordination(job.tally().accounts()));
            }
        }
    }

    /** The RUNNING jobs anywhere in the cluster that name this member as coordinator but that it does not drive. */
    private void takeOnUndriven() {
        for (Job job : jobs.values(Predicates.and(Predicates.equal("state", JobState.RUNNING.name()),
                Predicates.equal("coordinator", self)))) {
            // A start that has just stored its job and is about to hand it over may be seen here first: whichever
            // comes second finds the job in the map and changes nothing.
            if (coordinated.putIfAbsent(job.id(), new Coordination(job.tally().accounts())) == null) {
                LOG.info("Took on job {}: it names this member as coordinator, which was not driving it", job.id());
            }
        }
    }

    private void drive(String jobId) {
        Coordination coordination = coordinated.get(jobId);
        if (coordination == null) {
            return;
        }
        Job job = jobs.get(jobId);
        if (job == null || !job.running() || !self.equals(job.coordinator())) {
            coordinated.remove(jobId);
            if (job != null && !job.running()) {
                JobService.releaseGuard(hazelcast, job);
                if (self.equals(job.coordinator())) {
                    countFinished(job, coordination);
                }
            }
            return;
        }
        countAccounts(job, coordination);
        for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
            if (!job.isDone(partition) && coordination.inFlight.add(partition)) {
                submit(job, partition, coordination);
            }
        }
    }

    private void countAccounts(Job job, Coordination coordination) {
        long accounts = job.tally().accounts();
        if (accounts > coordination.accountsCounted) {
            meters.processed(job.type().name(), accounts - coordination.accountsCounted);
            coordination.accountsCounted = accounts;
        }
    }

    private void countFinished(Job job, Coordination coordination) {
        meters.processed(job.type().name(), Math.max(0, job.tally().accounts() - coordination.accountsCounted));
        coordination.accountsCounted = job.tally().accounts();
        // Start and end are stamped by the clocks of the members that started and finished it: never below zero.
        Duration took = Duration.ofMillis(Math.max(0, job.finishedAt() - job.startedAt()));
        meters.finished(job.type().name(), job.state().name().toLowerCase(Locale.ROOT), took);
    }

    private void submit(Job job, int partition, Coordination coordination) {
        String jobId = job.id();
        PartitionTask task = new PartitionTask(jobId, job.run(), partition, PartitionKeys.of(hazelcast, partition),
                settings.sliceSize(), settings.slicePause().toMillis(), settings.retention().toMillis());
        try {
            executor.submitToKeyOwner(task, task.getPartitionKey(), new ExecutionCallback<Long>() {
                @Override
                public void onResponse(Long accounts) {
                    coordination.inFlight.remove(partition);
                }

                @Override
                public void onFailure(Throwable failure) {
                    coordination.inFlight.remove(partition);
                    onLoop(() -> failed(jobId, partition, failure, coordination));
                }
            });
        } catch (RuntimeException e) {
            coordination.inFlight.remove(partition);
            throw e;
        }
    }

    /** A transient failure (a member left, a migration) is retried at the next tick; others count as attempts. */
    private void failed(String jobId, int partition, Throwable failure, Coordination coordination) {
        if (isTransient(failure)) {
            LOG.debug("Partition {} of job {} will be sent again: {}", partition, jobId, failure.toString());
            return;
        }
        int attempts = coordination.attempts.merge(partition, 1, Integer::sum);
        LOG.warn("Partition {} of job {} failed (attempt {} of {})", partition, jobId, attempts, MAX_ATTEMPTS,
                failure);
        if (attempts >= MAX_ATTEMPTS) {
            Job failedJob = BackedUpCalls.executeOnKey(hazelcast, jobs.getName(), jobId, new FailJob("Partition "
                    + partition + " failed " + attempts + " times; the coordinator's log has the cause.",
                    ClusterClock.now(hazelcast), settings.retention().toMillis()));
            if (failedJob != null) {
                JobService.releaseGuard(hazelcast, failedJob);
            }
        }
    }

    private static boolean isTransient(Throwable failure) {
        return GridFailures.translate(failure) instanceof Refusal refusal && refusal.isTransient()
                || GridFailures.unwrap(failure) instanceof RejectedExecutionException;
    }

    private void onLoop(Runnable action) {
        try {
            loop.execute(() -> {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    logTickFailure("a job step", e);
                }
            });
        } catch (RejectedExecutionException e) {
            // Closed: this member is leaving, and the job's record says what is left for its adopter.
        }
    }

    private void logTickFailure(String what, RuntimeException e) {
        if (e instanceof HazelcastInstanceNotActiveException || !hazelcast.getLifecycleService().isRunning()) {
            return;
        }
        LOG.warn("Job runner failed {}; it tries again at the next tick", what, e);
    }

    @PreDestroy
    @Override
    public void close() {
        Timers.stop(loop);
    }
}
