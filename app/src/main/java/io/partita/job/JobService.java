package io.partita.job;

import com.hazelcast.core.EntryView;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.projection.Projections;
import com.hazelcast.query.Predicates;
import io.micronaut.core.annotation.Nullable;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.Refusal;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts jobs and reads them, for the API and for schedules. At most one job of a type runs at a time unless the job is
 * {@code concurrent}; a start either stores a RUNNING job and hands it to this member's {@link JobRunner}, or says why
 * not. While the partition of a job's record has no data, the job is neither read as missing nor started: both are
 * refused as partition-lost, a transient refusal.
 *
 * <p>Starting is three grid steps on the calling thread (the HTTP blocking pool or the schedule trigger's thread),
 * which it blocks. The bean's fields are final: what two starts contend for is decided in the grid (the guard's {@code
 * putIfAbsent}, the job's {@link StartJob}), not in this process.
 */
@Singleton
public class JobService {

    /*
     * Starting
     *
     * Take the type's guard (unless the job is concurrent), store the RUNNING job under its id if the id is free
     * (StartJob), and hand it to this member's JobRunner, which sends out the partition tasks. While any partition has
     * no data (a restart still bringing it back from disk), no job that is not concurrent starts: a running job of its
     * type may be there.
     *
     * The guard
     *
     * "At most one running job of a type" needs one atomic place per type, because jobs of a type live in different
     * partitions. It is an entry of job-guards holding the running job's run key (id/run, so that two starts of one id
     * are told apart), taken with putIfAbsent and released (conditionally, by run key) by whoever sees the job finish.
     * A guard left behind by a crash is recognised as stale because its job is no longer running, and replaced.
     *
     * Knowing its own write
     *
     * A start knows its own write by the job's run, a random token drawn for each attempt. When the store's answer is
     * lost (the write landed, then its retry on a promoted backup finds the record) or the write fails without saying
     * whether it landed (the backup did not confirm: Hazelcast's indeterminate operation state), the job is read back:
     * if it is this attempt's, it is driven and reported started; if the read fails too, the job, should it exist,
     * names this member as coordinator and its runner takes it on at its next tick (JobRunner).
     */

    /** A guard whose job record is missing is taken to be mid-start for this long, then stale. */
    private static final Duration GUARD_GRACE = Duration.ofSeconds(10);
    private static final int GUARD_ATTEMPTS = 10;

    public enum Outcome { STARTED, EXISTS, BUSY }

    /**
     * @param job   for {@link Outcome#STARTED}, the job started; for {@link Outcome#EXISTS}, the job that holds the id
     * @param other for {@link Outcome#BUSY}, the id of the running job of the same type
     */
    public record Attempt(Outcome outcome, @Nullable Job job, @Nullable String other) {
    }

    private final HazelcastInstance hazelcast;
    private final JobRunner runner;
    private final IMap<String, Job> jobs;
    private final IMap<String, String> guards;
    private final StartStore starts;

    /** Stores a new job's record with {@link StartJob} and answers what the key holds after it (a test's seam). */
    @FunctionalInterface
    interface StartStore {
        Job store(String id, StartJob start);
    }

    @Inject
    JobService(HazelcastInstance hazelcast, JobRunner runner) {
        this(hazelcast, runner, durableStarts(hazelcast));
    }

    /** @param starts how a new job's record is stored: {@link #durableStarts}, or one that a test makes fail */
    JobService(HazelcastInstance hazelcast, JobRunner runner, StartStore starts) {
        this.hazelcast = hazelcast;
        this.runner = runner;
        this.jobs = JobFeature.jobs(hazelcast);
        this.guards = JobFeature.jobGuards(hazelcast);
        this.starts = starts;
    }

    /**
     * On the key's owner through {@link BackedUpCalls}: the record's disk write, on owner and backup, is queued to the
     * committer and the call answered once it is durable, so no partition thread waits for the disk.
     */
    static StartStore durableStarts(HazelcastInstance hazelcast) {
        return (id, start) -> BackedUpCalls.executeOnKey(hazelcast, JobFeature.JOBS, id, start);
    }

    /**
     * Starts a job for a client: refused when the id is taken, or a job of its type runs and this one is not
     * concurrent.
     */
    Job start(@Nullable String id, JobSpec spec) {
        String jobId = id == null ? "job-" + UUID.randomUUID().toString().replace("-", "") : id;
        Attempt attempt = tryStart(jobId, spec, null);
        return switch (attempt.outcome()) {
            case STARTED -> attempt.job();
            case EXISTS -> throw Refusal.exists("Job", "A job with id '" + jobId + "' already exists.");
            case BUSY -> throw Refusal.jobRunning("Job '" + attempt.other() + "' of type " + spec.type()
                    + " is still running. Wait for it, or send \"concurrent\": true to run this one beside it.");
        };
    }

    /**
     * Starts a job unless its id is taken or (when not concurrent) a job of its type runs; refuses only while data is
     * missing (see above), transiently.
     */
    public Attempt tryStart(String id, JobSpec spec, @Nullable String schedule) {
        Job existing = stored(id);
        if (existing != null) {
            return new Attempt(Outcome.EXISTS, existing, null);
        }
        if (!spec.concurrent()) {
            refuseWhileDataIsMissing(spec.type());
        }
        Job job = Job.start(id, newRun(), spec, schedule, ClusterClock.now(hazelcast), runner.memberId());
        String type = spec.type().name();
        if (!spec.concurrent()) {
            String holder = acquireGuard(type, job.runKey());
            if (holder != null) {
                return new Attempt(Outcome.BUSY, null, idOf(holder));
            }
        }
        Job stored;
        try {
            if (!spec.concurrent()) {
                Optional<String> other = otherRunning(spec.type(), id);
                if (other.isPresent()) {
                    releaseGuard(job);
                    return new Attempt(Outcome.BUSY, null, other.get());
                }
            }
            stored = starts.store(id, new StartJob(job));
        } catch (RuntimeException e) {
            return afterFailedStore(job, e);
        }
        if (stored != null && !stored.run().equals(job.run())) {
            releaseGuard(job);
            return new Attempt(Outcome.EXISTS, stored, null);
        }
        // Stored now, or by this attempt already (its answer was lost and the retried write found it).
        runner.start(job);
        return new Attempt(Outcome.STARTED, job, null);
    }

    /**
     * The store failed, perhaps after it landed: reads the job back. This attempt's job is driven and reported
     * started. Another one means the id was taken. None means it did not land: the guard is released and the failure
     * stands (503 for the API, a retry at the next tick for a schedule). When the read fails too, the guard stays: it
     * is recognised as stale within {@link #GUARD_GRACE} if the job was not stored, and a stored one is taken on by
     * this member's runner, as it names this member as coordinator.
     */
    private Attempt afterFailedStore(Job job, RuntimeException failure) {
        Job found;
        try {
            found = jobs.get(job.id());
        } catch (RuntimeException again) {
            failure.addSuppressed(again);
            throw failure;
        }
        if (found != null && found.run().equals(job.run())) {
            runner.start(found);
            return new Attempt(Outcome.STARTED, found, null);
        }
        releaseGuard(job);
        if (found != null) {
            return new Attempt(Outcome.EXISTS, found, null);
        }
        throw failure;
    }

    private void releaseGuard(Job job) {
        if (!job.spec().concurrent()) {
            guards.remove(job.type().name(), job.runKey());
        }
    }

    /** A run token: random, so that no two starts of one id share it; base 36 keeps the journal's txIds short. */
    private static String newRun() {
        return Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, Character.MAX_RADIX);
    }

    /** The job id in a guard's value ({@code id/run}); ids hold no '/'. */
    private static String idOf(String runKey) {
        int slash = runKey.indexOf('/');
        return slash < 0 ? runKey : runKey.substring(0, slash);
    }

    /** @return null when this run now holds the type's guard, else the run key of the running job that holds it */
    private String acquireGuard(String type, String runKey) {
        for (int attempt = 0; attempt < GUARD_ATTEMPTS; attempt++) {
            String holder = guards.putIfAbsent(type, runKey);
            if (holder == null || holder.equals(runKey)) {
                return null;
            }
            if (holds(type, holder)) {
                return holder;
            }
            if (guards.replace(type, holder, runKey)) {
                return null;
            }
        }
        throw Refusal.unavailable("Jobs of type " + type + " are being started concurrently; retry.",
                Duration.ofSeconds(1));
    }

    private boolean holds(String type, String holder) {
        Job job = jobs.get(idOf(holder));
        if (job != null) {
            // The id may now name another run: the holder's run then never stored its job, or finished long ago.
            return job.running() && job.runKey().equals(holder);
        }
        EntryView<String, String> guard = guards.getEntryView(type);
        long setAt = guard == null ? 0 : Math.max(guard.getCreationTime(), guard.getLastUpdateTime());
        // The entry's times are its owner's own clock.
        return System.currentTimeMillis() - setAt < GUARD_GRACE.toMillis();
    }

    /** A running job of {@code type} other than {@code id}, concurrent ones included. */
    private Optional<String> otherRunning(JobType type, String id) {
        return jobs.keySet(Predicates.and(Predicates.equal("type", type.name()),
                        Predicates.equal("state", JobState.RUNNING.name())))
                .stream().filter(other -> !other.equals(id)).sorted().findFirst();
    }

    public Optional<Job> find(String id) {
        return Optional.ofNullable(stored(id));
    }

    /**
     * Refuses a job that is not concurrent while some partition has no data (a restart still bringing it back from
     * disk, or every copy lost): a running job of its type may be there, unseen by {@link #otherRunning}, and a guard
     * left there unseen too (guards are not kept on disk).
     */
    private void refuseWhileDataIsMissing(JobType type) {
        List<Integer> lost = PartitionSentinels.of(hazelcast).lostPartitions();
        if (!lost.isEmpty()) {
            throw Refusal.unavailable("No job of type " + type + " starts while the data of partition " + lost.get(0)
                    + " is not available (a restart still bringing it back from disk, or every copy lost): a running "
                    + "job of the type may be there. Retry later, or send \"concurrent\": true.",
                    Duration.ofSeconds(5));
        }
    }

    /**
     * The job under {@code id}, or null when there is none. Refused as partition-lost while the partition of its
     * record has no data (a restart still bringing it back from disk, or every copy lost): the job may exist, and a
     * start now would run a client's job or a schedule's firing a second time.
     */
    private Job stored(String id) {
        Job job = jobs.get(id);
        if (job == null) {
            PartitionSentinels.of(hazelcast).refuseIfLost("Job", id);
        }
        return job;
    }

    /**
     * The latest {@code limit} jobs, newest first; finished jobs stay for {@code partita.jobs.retention}. Only the
     * ids and start times of all jobs are read (a projection: a per-second schedule keeps 86,400 jobs a day), then
     * the {@code limit} newest jobs in full.
     */
    List<Job> recent(int limit) {
        Collection<Object[]> starts = jobs.project(Projections.multiAttribute("id", "startedAt"));
        List<String> newest = starts.stream()
                .sorted(Comparator.comparingLong((Object[] row) -> (Long) row[1]).reversed()
                        .thenComparing(row -> (String) row[0]))
                .limit(limit)
                .map(row -> (String) row[0])
                .toList();
        Map<String, Job> found = jobs.getAll(new HashSet<>(newest));
        // A job that expired between the two reads is left out.
        return newest.stream().map(found::get).filter(Objects::nonNull).toList();
    }

    /** Frees the type's guard of a job that no longer runs; a no-op when another job holds it or none does. */
    static void releaseGuard(HazelcastInstance hazelcast, Job job) {
        if (!job.spec().concurrent()) {
            JobFeature.jobGuards(hazelcast).remove(job.type().name(), job.runKey());
        }
    }
}
