package io.partita.job;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.web.ApiException;
import io.partita.web.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;

import java.util.List;

import static io.partita.job.JobController.grid;

/**
 * Schedules over HTTP: create or replace, list, read, delete. They fire on whichever member owns them.
 * <b>Threads:</b> Micronaut runs every route on the HTTP blocking pool, many requests at once; it keeps only a final
 * reference to {@link ScheduleService}.
 */
@Controller("/schedules")
@Validated
@ExecuteOn(TaskExecutors.BLOCKING)
class ScheduleController {

    private final ScheduleService schedules;

    ScheduleController(ScheduleService schedules) {
        this.schedules = schedules;
    }

    @Put("/{name}")
    JobApi.ScheduleView put(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name,
                            @Valid @Body JobApi.ScheduleRequest body) {
        if (body.job().id() != null) {
            throw ApiException.invalidField("job.id", "must not be set: each firing runs a job named after the "
                    + "schedule and the firing's time");
        }
        JobSpec spec = body.job().spec("job.");
        return JobApi.ScheduleView.of(grid(() -> schedules.put(name, body.cron(), spec)));
    }

    @Get
    List<JobApi.ScheduleView> list() {
        return grid(schedules::list).stream().map(JobApi.ScheduleView::of).toList();
    }

    @Get("/{name}")
    JobApi.ScheduleView get(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name) {
        return JobApi.ScheduleView.of(grid(() -> schedules.find(name))
                .orElseThrow(() -> ApiException.notFound("Schedule", name)));
    }

    @Delete("/{name}")
    HttpResponse<Void> delete(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name) {
        grid(() -> {
            schedules.delete(name);
            return null;
        });
        return HttpResponse.noContent();
    }
}
