package io.partita.job;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micronaut.context.annotation.Context;

import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The hooks a job feature calls to be seen in {@code /prometheus}, kept generic (a job is a type and an outcome):
 * {@code partita_jobs_started_total{type}}, {@code partita_jobs_finished_total{type,outcome}},
 * {@code partita_job_duration_seconds{type,outcome}}, {@code partita_job_accounts_total{type}} and the gauge
 * {@code partita_jobs_running} of jobs this node coordinates now. Each is counted by the node that coordinates the
 * job, once: a job adopted after its coordinator left is finished (and its later accounts counted) by the adopter.
 * Every method may be called from any thread; Micrometer meters are thread-safe and registered
 * idempotently by name and tags; the gauge reads whatever {@link #runningFrom} was given, on the scraping thread.
 */
@Context
public class JobMeters {

    private final MeterRegistry registry;
    private volatile IntSupplier running = () -> 0;

    public JobMeters(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("partita.jobs.running", this, meters -> meters.running.getAsInt())
                .description("Jobs this node coordinates that have not finished")
                .register(registry);
    }

    /** The gauge of running jobs reads {@code jobs}: the count of jobs the node coordinates now. */
    public void runningFrom(IntSupplier jobs) {
        this.running = jobs;
    }

    /** A job was started on this node (which coordinates it). */
    public void started(String type) {
        Counter.builder("partita.jobs.started").description("Jobs started on this node")
                .tag("type", type).register(registry).increment();
    }

    /** A job this node coordinates has finished with {@code outcome} (completed or failed). */
    public void finished(String type, String outcome, Duration took) {
        Counter.builder("partita.jobs.finished").description("Jobs finished on this node, by outcome")
                .tag("type", type).tag("outcome", outcome).register(registry).increment();
        Timer.builder("partita.job.duration").description("Time from a job's start to its end")
                .tag("type", type).tag("outcome", outcome)
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(5),
                        Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(10))
                .register(registry).record(took);
    }

    /** {@code accounts} more accounts were processed by a job this node coordinates (0 registers the counter). */
    public void processed(String type, long accounts) {
        Counter.builder("partita.job.accounts").description("Accounts processed by jobs this node coordinates")
                .tag("type", type).register(registry).increment(accounts);
    }
}
