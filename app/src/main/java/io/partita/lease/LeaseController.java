package io.partita.lease;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * Worker lease groups over HTTP: create a group of N shards, join it as a worker, renew (the answer is the worker's
 * shards, each with its fencing token), leave, and check a token from a worker's downstream store. Any node answers;
 * the group lives in one partition of the grid.
 * <b>Threads:</b> creating a group, renewals, joins, leaves and checks run on the Netty event loops and do not block
 * a thread: each is one entry processor whose answer completes the response; listing, reading and deleting groups
 * block and run on the HTTP blocking pool. It keeps only final references to singletons.
 *
 * <p>Renewals, joins, leaves and checks take no permit of the node's transaction limit
 * ({@code partita.max-in-flight}), so a node saturated with transactions still answers them, queued behind at most
 * the partition's current operations.
 */
@Controller("/groups")
@Validated
class LeaseController {

    private static final String WORKER_GONE = "lease-lost";

    private final LeaseService leases;

    LeaseController(LeaseService leases) {
        this.leases = leases;
    }

    @Operation(operationId = "putGroup")
    @ApiResponse(responseCode = "201", description = "The group, created",
            content = @Content(schema = @Schema(implementation = LeaseApi.GroupSummary.class)))
    @ApiResponse(responseCode = "200", description = "The same group existed already",
            content = @Content(schema = @Schema(implementation = LeaseApi.GroupSummary.class)))
    @BodyRefusals
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Put("/{group}")
    CompletionStage<HttpResponse<LeaseApi.GroupSummary>> create(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group,
            @Valid @Body LeaseApi.CreateGroup body) {
        int shards = body.shards().intValueExact();
        long leaseMillis = body.leaseMillis();
        return leases.create(group, shards, leaseMillis).thenApply(answer -> switch (answer.status()) {
            case CREATED -> HttpResponse.created(new LeaseApi.GroupSummary(group, shards, leaseMillis));
            case OK -> HttpResponse.ok(new LeaseApi.GroupSummary(group, shards, leaseMillis));
            default -> throw Refusal.exists("Group", "Group " + group
                    + " exists with another shard count or lease time; delete it first.");
        });
    }

    @Operation(operationId = "listGroups")
    @ApiResponse(responseCode = "200", description = "Every group")
    @Get
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<LeaseApi.GroupView> list() {
        long now = leases.now();
        return leases.list().stream().map(e -> LeaseApi.GroupView.of(e.getKey(), e.getValue(), now, false)).toList();
    }

    @Operation(operationId = "getGroup")
    @ApiResponse(responseCode = "200", description = "The group, its workers and shards")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get("/{group}")
    @ExecuteOn(TaskExecutors.BLOCKING)
    LeaseApi.GroupView get(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group) {
        LeaseGroup state = leases.find(group).orElseThrow(() -> Refusal.notFound("Group", group));
        return LeaseApi.GroupView.of(group, state, leases.now(), true);
    }

    @Operation(operationId = "deleteGroup")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Delete("/{group}")
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<Void> delete(@PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group) {
        if (!leases.delete(group)) {
            throw Refusal.notFound("Group", group);
        }
        return HttpResponse.noContent();
    }

    @Operation(operationId = "joinGroup")
    @ApiResponse(responseCode = "201", description = "The worker joined; the shards it holds now")
    @BodyRefusals
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post("/{group}/workers")
    CompletionStage<HttpResponse<LeaseApi.Lease>> join(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group,
            @Valid @Nullable @Body LeaseApi.Join body) {
        String requestId = body == null || body.requestId() == null ? UUID.randomUUID().toString() : body.requestId();
        return leases.join(group, requestId).thenApply(answer -> {
            requireGroup(group, answer);
            return HttpResponse.created(LeaseApi.Lease.of(group, answer));
        });
    }

    @Operation(operationId = "renewLease")
    @ApiResponse(responseCode = "200", description = "The lease renewed; the shards the worker holds now")
    @ApiResponse(responseCode = "410", ref = ApiDocs.GONE)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post("/{group}/workers/{workerId}/renew")
    CompletionStage<LeaseApi.Lease> renew(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group,
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String workerId) {
        return leases.renew(group, workerId).thenApply(answer -> {
            requireWorker(group, workerId, answer);
            return LeaseApi.Lease.of(group, answer);
        });
    }

    @Operation(operationId = "leaveGroup")
    @ApiResponse(responseCode = "204", description = "The worker left; its shards go to the others")
    @ApiResponse(responseCode = "410", ref = ApiDocs.GONE)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Delete("/{group}/workers/{workerId}")
    CompletionStage<HttpResponse<Void>> leave(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group,
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String workerId) {
        return leases.leave(group, workerId).thenApply(answer -> {
            requireWorker(group, workerId, answer);
            return HttpResponse.noContent();
        });
    }

    @Operation(operationId = "checkFence")
    @ApiResponse(responseCode = "200", description = "Whether the token is the shard's current one")
    @BodyRefusals
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post("/{group}/fences/check")
    CompletionStage<LeaseApi.CheckAnswer> check(
            @PathVariable @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String group,
            @Valid @Body LeaseApi.Check body) {
        int shard = body.shard().intValueExact();
        long token = body.token().longValueExact();
        return leases.check(group, shard, token).thenApply(answer -> {
            requireGroup(group, answer);
            if (answer.status() == LeaseAnswer.Status.CONFLICT) {
                throw Refusal.invalidField("shard", "must be below the group's shard count");
            }
            return new LeaseApi.CheckAnswer(shard, token, answer.status() == LeaseAnswer.Status.OK,
                    answer.currentToken() < 0 ? null : answer.currentToken());
        });
    }

    private static void requireGroup(String group, LeaseAnswer answer) {
        if (answer.status() == LeaseAnswer.Status.NO_GROUP) {
            throw Refusal.notFound("Group", group);
        }
    }

    private static void requireWorker(String group, String workerId, LeaseAnswer answer) {
        requireGroup(group, answer);
        if (answer.status() == LeaseAnswer.Status.UNKNOWN_WORKER) {
            throw Refusal.leaseLost("Worker " + workerId + " holds no lease in group "
                    + group + ": it left, or its lease ended and its shards went to the others. Join again.");
        }
    }
}
