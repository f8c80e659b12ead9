package io.partita.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micronaut.context.annotation.Context;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hooks a job feature calls to be seen in {@code /prometheus}, kept generic (a job is a type and an outcome):
 * {@code partita_jobs_started_total{type}}, {@code partita_jobs_finished_total{type,outcome}},
 * {@code partita_job_duration_seconds{type,outcome}}, {@code partita_job_accounts_total{type}} and the gauge
 * {@code partita_jobs_running} of jobs this node coordinates now.
 *
 * <p>Concurrency: every method may be called from any thread; Micrometer meters and the gauge's counter are
 * thread-safe, and meters are registered idempotently by name and tags.
 */
@Context
public class JobMeters {

    private final MeterRegistry registry;
    private final AtomicInteger running = new AtomicInteger();

    JobMeters(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("partita.jobs.running", running, AtomicInteger::get)
                .description("Jobs this node coordinates that have not finished")
                .register(registry);
    }

    /** A job this node coordinates has started. */
    public void started(String type) {
        running.incrementAndGet();
        Counter.builder("partita.jobs.started").description("Jobs started on this node")
                .tag("type", type).register(registry).increment();
    }

    /** A job this node coordinates has finished with {@code outcome} (such as completed or failed). */
    public void finished(String type, String outcome, Duration took) {
        running.updateAndGet(value -> Math.max(0, value - 1));
        Counter.builder("partita.jobs.finished").description("Jobs finished on this node, by outcome")
                .tag("type", type).tag("outcome", outcome).register(registry).increment();
        Timer.builder("partita.job.duration").description("Time from a job's start to its end")
                .tag("type", type).tag("outcome", outcome)
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(5),
                        Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(10))
                .register(registry).record(took);
    }

    /** {@code accounts} more accounts were processed by a job on this member. */
    public void processed(String type, long accounts) {
        Counter.builder("partita.job.accounts").description("Accounts processed by jobs on this member")
                .tag("type", type).register(registry).increment(accounts);
    }
}
