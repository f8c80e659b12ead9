package io.partita.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.job.JobApi.JobRequest;
import io.partita.job.JobApi.SpecView;
import io.partita.web.StrictJson;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.time.Instant;

/** The bodies of the schedule API (app/README.md, "Jobs and schedules"). */
final class ScheduleApi {

    /** The longest cron accepted; the longest sensible 5- or 6-field expression is well under it. */
    static final int MAX_CRON_LENGTH = 200;

    private ScheduleApi() {
    }

    @Serdeable
    record ScheduleRequest(@NotBlank @Size(max = MAX_CRON_LENGTH) @StrictJson.Text String cron,
                           @NotNull @Valid @StrictJson.Nested JobRequest job) {
    }

    /**
     * A schedule: its cron, its job, when it fires next and what it fired so far (see {@link Schedule}). Times are
     * UTC instants; {@code nextFireAt} is null for an expression that never fires again.
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ScheduleView(String name, String cron, SpecView job, String createdAt, @Nullable String nextFireAt,
                        @Nullable String lastFiredAt, long firings, long missed, long skipped,
                        @Nullable String lastJobId, @Nullable String lastNote) {

        static ScheduleView of(Schedule schedule) {
            long next = Cron.next(schedule.cron(), Math.max(schedule.lastFiredAt(), System.currentTimeMillis()));
            boolean fired = schedule.lastFiredAt() != schedule.createdAt();
            return new ScheduleView(schedule.name(), schedule.cron(), SpecView.of(schedule.job()),
                    Instant.ofEpochMilli(schedule.createdAt()).toString(),
                    next < 0 ? null : Instant.ofEpochMilli(next).toString(),
                    fired ? Instant.ofEpochMilli(schedule.lastFiredAt()).toString() : null,
                    schedule.firings(), schedule.missed(), schedule.skipped(), schedule.lastJobId(),
                    schedule.lastNote());
        }
    }
}
