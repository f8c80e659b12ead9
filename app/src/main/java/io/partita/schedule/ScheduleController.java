package io.partita.schedule;

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
import io.partita.job.JobSpec;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;

import java.util.List;


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

    @Operation(operationId = "putSchedule")
    @ApiResponse(responseCode = "200", description = "The schedule, created or replaced")
    @BodyRefusals
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Put("/{name}")
    ScheduleApi.ScheduleView put(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name,
                            @Valid @Body ScheduleApi.ScheduleRequest body) {
        if (body.job().id() != null) {
            throw Refusal.invalidField("job.id", "must not be set: each firing runs a job named after the "
                    + "schedule and the firing's time");
        }
        JobSpec spec = body.job().spec("job.");
        return ScheduleApi.ScheduleView.of(GridFailures.call(() -> schedules.put(name, body.cron(), spec)));
    }

    @Operation(operationId = "listSchedules")
    @ApiResponse(responseCode = "200", description = "Every schedule")
    @Get
    List<ScheduleApi.ScheduleView> list() {
        return GridFailures.call(schedules::list).stream().map(ScheduleApi.ScheduleView::of).toList();
    }

    @Operation(operationId = "getSchedule")
    @ApiResponse(responseCode = "200", description = "The schedule")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get("/{name}")
    ScheduleApi.ScheduleView get(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name) {
        return ScheduleApi.ScheduleView.of(GridFailures.call(() -> schedules.find(name))
                .orElseThrow(() -> Refusal.notFound("Schedule", name)));
    }

    @Operation(operationId = "deleteSchedule")
    @ApiResponse(responseCode = "204", description = "Deleted; no firing follows")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Delete("/{name}")
    HttpResponse<Void> delete(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String name) {
        GridFailures.call(() -> {
            schedules.delete(name);
            return null;
        });
        return HttpResponse.noContent();
    }
}
