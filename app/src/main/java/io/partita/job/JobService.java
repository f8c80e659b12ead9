package io.partita.job;

import com.hazelcast.core.EntryView;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.micronaut.core.annotation.Nullable;
import io.partita.cluster.Maps;
import io.partita.web.ApiException;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Starts jobs and reads them, for the API and for schedules. Starting is three grid steps on the calling thread: take
 * the type's guard (unless the job is {@code concurrent}), store the RUNNING job under its id if the id is free, and
 * hand it to this member's {@link JobRunner}, which sends out the partition tasks.
 *
 * <p>The guard: "at most one running job of a type" needs one atomic place per type, because jobs of a type live in
 * different partitions. It is an entry of {@code job-guards} holding the running job's id, taken with
 * {@code putIfAbsent} and released (conditionally, by id) by whoever sees the job finish. A guard left behind by a
 * crash is recognised as stale because its job is no longer running, and replaced.
 */
@Singleton
class JobService {

    /** A guard whose job record is missing is taken to be mid-start for this long, then stale. */
    private static final Duration GUARD_GRACE = Duration.ofSeconds(10);
    private static final int GUARD_ATTEMPTS = 10;

    enum Outcome { STARTED, EXISTS, BUSY }

    /** @param other for {@link Outcome#BUSY}, the running job of the same type */
    record Attempt(Outcome outcome, @Nullable Job job, @Nullable String other) {
    }

    private final HazelcastInstance hazelcast;
    private final JobRunner runner;
    private final IMap<String, Job> jobs;
    private final IMap<String, String> guards;

    JobService(HazelcastInstance hazelcast, JobRunner runner) {
        this.hazelcast = hazelcast;
        this.runner = runner;
        this.jobs = Maps.jobs(hazelcast);
        this.guards = Maps.jobGuards(hazelcast);
    }

    /** Starts a job for a client: 409 when the id is taken or a job of the type runs and this one is not concurrent. */
    Job start(@Nullable String id, JobSpec spec) {
        String jobId = id == null ? "job-" + UUID.randomUUID().toString().replace("-", "") : id;
        Attempt attempt = tryStart(jobId, spec, null);
        return switch (attempt.outcome()) {
            case STARTED -> attempt.job();
            case EXISTS -> throw ApiException.conflict("job-exists", "Job exists",
                    "A job with id '" + jobId + "' already exists.");
            case BUSY -> throw ApiException.conflict("job-running", "A job of this type is running",
                    "Job '" + attempt.other() + "' of type " + spec.type() + " is still running. Wait for it, or send "
                            + "\"concurrent\": true to run this one beside it.");
        };
    }

    /** Starts a job unless its id is taken or (when not concurrent) a job of its type runs; never throws a 409. */
    Attempt tryStart(String id, JobSpec spec, @Nullable String schedule) {
        if (jobs.containsKey(id)) {
            return new Attempt(Outcome.EXISTS, null, null);
        }
        String type = spec.type().name();
        if (!spec.concurrent()) {
            String holder = acquireGuard(type, id);
            if (holder != null) {
                return new Attempt(Outcome.BUSY, null, holder);
            }
        }
        try {
            if (!spec.concurrent()) {
                Optional<String> other = otherRunning(spec.type(), id);
                if (other.isPresent()) {
                    guards.remove(type, id);
                    return new Attempt(Outcome.BUSY, null, other.get());
                }
            }
            Job job = Job.start(id, spec, schedule, System.currentTimeMillis(), runner.memberId());
            if (jobs.putIfAbsent(id, job) != null) {
                if (!spec.concurrent()) {
                    guards.remove(type, id);
                }
                return new Attempt(Outcome.EXISTS, null, null);
            }
            runner.coordinate(id);
            return new Attempt(Outcome.STARTED, job, null);
        } catch (RuntimeException e) {
            if (!spec.concurrent()) {
                guards.remove(type, id);
            }
            throw e;
        }
    }

    /** @return null when this job now holds the type's guard, else the id of the running job that holds it */
    private String acquireGuard(String type, String id) {
        for (int attempt = 0; attempt < GUARD_ATTEMPTS; attempt++) {
            String holder = guards.putIfAbsent(type, id);
            if (holder == null || holder.equals(id)) {
                return null;
            }
            if (holds(type, holder)) {
                return holder;
            }
            if (guards.replace(type, holder, id)) {
                return null;
            }
        }
        throw ApiException.unavailable("Jobs of type " + type + " are being started concurrently; retry.",
                Duration.ofSeconds(1));
    }

    private boolean holds(String type, String holder) {
        Job job = jobs.get(holder);
        if (job != null) {
            return job.running();
        }
        EntryView<String, String> guard = guards.getEntryView(type);
        long setAt = guard == null ? 0 : Math.max(guard.getCreationTime(), guard.getLastUpdateTime());
        return System.currentTimeMillis() - setAt < GUARD_GRACE.toMillis();
    }

    /** A running job of {@code type} other than {@code id}, concurrent ones included. */
    private Optional<String> otherRunning(JobType type, String id) {
        return jobs.keySet(Predicates.and(Predicates.equal("type", type.name()),
                        Predicates.equal("state", JobState.RUNNING.name())))
                .stream().filter(other -> !other.equals(id)).sorted().findFirst();
    }

    Optional<Job> find(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    boolean exists(String id) {
        return jobs.containsKey(id);
    }

    /** The latest {@code limit} jobs, newest first; finished jobs stay for {@code partita.jobs.retention}. */
    List<Job> recent(int limit) {
        return jobs.values().stream()
                .sorted(Comparator.comparingLong(Job::startedAt).reversed().thenComparing(Job::id))
                .limit(limit)
                .toList();
    }

    /** Frees the type's guard of a job that no longer runs; a no-op when another job holds it or none does. */
    static void releaseGuard(HazelcastInstance hazelcast, Job job) {
        if (!job.spec().concurrent()) {
            Maps.jobGuards(hazelcast).remove(job.type().name(), job.id());
        }
    }
}
