package io.partita.job;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.time.Duration;

/**
 * How jobs and schedules run on this node, under {@code partita.jobs.*} ({@code PARTITA_JOBS_SLICE_SIZE}, ...).
 * A job's coordinator hands its own slice settings to every partition task of the job.
 *
 * @param tick         how often the coordinator loop looks at its jobs and for orphaned ones
 * @param sliceSize    accounts per entry-processor batch: the longest a job holds a partition thread at a time
 * @param slicePause   a pause between two batches of one partition, to throttle a job below full speed (0: none)
 * @param retention    how long a finished job stays readable
 * @param scheduleTick how often each member looks at the schedules it owns for a firing that is due
 */
@ConfigurationProperties("partita.jobs")
public record JobSettings(@NotNull Duration tick,
                   @Min(1) @Max(10_000) int sliceSize,
                   @NotNull Duration slicePause,
                   @NotNull Duration retention,
                   @NotNull Duration scheduleTick) {
}
