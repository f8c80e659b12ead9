package io.partita.job;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import java.util.List;

/**
 * Jobs over HTTP. Any node accepts a job (and coordinates it) and any node answers for any job.
 * <b>Threads:</b> Micronaut runs every route on the HTTP blocking pool, many requests at once (starting a job blocks
 * on a few grid steps); it keeps only a final reference to {@link JobService}.
 */
@Controller("/jobs")
@Validated
@ExecuteOn(TaskExecutors.BLOCKING)
class JobController {

    /** The most jobs one listing returns. */
    static final int MAX_LIST = 1000;

    private final JobService jobs;

    JobController(JobService jobs) {
        this.jobs = jobs;
    }

    /** 202: the job runs on; {@code Location} is where to follow it. */
    @Operation(operationId = "startJob")
    @ApiResponse(responseCode = "202", description = "Started; GET /jobs/{id} follows it")
    @BodyRefusals
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @Post
    HttpResponse<JobApi.JobView> start(@Valid @Body JobApi.JobRequest body) {
        JobSpec spec = body.spec("");
        Job job = GridFailures.call(() -> jobs.start(body.id(), spec));
        return HttpResponse.<JobApi.JobView>status(HttpStatus.ACCEPTED)
                .body(JobApi.JobView.of(job))
                .header(HttpHeaders.LOCATION, "/jobs/" + job.id());
    }

    @Operation(operationId = "getJob")
    @ApiResponse(responseCode = "200", description = "The job")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @Get("/{id}")
    JobApi.JobView get(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id) {
        return JobApi.JobView.of(GridFailures.call(() -> jobs.find(id)).orElseThrow(() -> Refusal.notFound("Job", id)));
    }

    /** The latest jobs, newest first. */
    @Operation(operationId = "listJobs")
    @ApiResponse(responseCode = "200", description = "Jobs, newest first")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @Get
    List<JobApi.JobView> recent(@QueryValue(defaultValue = "50") @Min(1) int limit) {
        // As an account's journal: a larger limit is served as the most a node lists at once rather than refused.
        int most = Math.min(limit, MAX_LIST);
        return GridFailures.call(() -> jobs.recent(most)).stream().map(JobApi.JobView::of).toList();
    }

}
