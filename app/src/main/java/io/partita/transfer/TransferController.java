package io.partita.transfer;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.validation.Validated;
import io.partita.locking.Deadline;
import io.partita.node.PartitaProperties;
import io.partita.node.ProcessingMode;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.transaction.TransactionService;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.InFlightLimit;
import io.partita.web.Problem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.inject.Named;
import jakarta.validation.Valid;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@code POST /transfers}.
 * <b>Threads:</b> the request arrives on an HTTP event loop, which takes the transfer's deadline and its in-flight
 * permits and answers 503 at once when the node is full. The transfer itself blocks while it runs its steps (and, in
 * locked mode, holds two locks on its thread), so it runs as one task on the blocking executor. The controller keeps
 * only final references; each request's state (its deadline, its permits) is its own.
 *
 * <p>The client hears by the deadline: the answer stops waiting for the task then (503, "may or may not have been
 * applied"), and the task, which checks the same deadline, stops before its next step.
 *
 * <p>A transfer takes {@link #PERMITS} in-flight permits, one per step it applies (the debit and the credit), as a
 * batch takes one per item: {@code partita.max-in-flight} counts transactions under way. The permits are held until
 * the task really ends, not until the client is answered, so tasks still queued or running on the blocking executor
 * after their client had a 503 count too, and the executor's queue stays bounded by the limit.
 */
@Controller("/transfers")
@Validated
class TransferController {

    static final String REPLAYED_HEADER = "Idempotent-Replayed";
    static final int PERMITS = 2;

    private final TransferService transfers;
    private final InFlightLimit inFlight;
    private final ExecutorService blocking;
    private final Duration requestTimeout;

    TransferController(TransferService transfers, InFlightLimit inFlight,
                       @Named(TaskExecutors.BLOCKING) ExecutorService blocking, PartitaProperties properties) {
        this.transfers = transfers;
        this.inFlight = inFlight;
        this.blocking = blocking;
        this.requestTimeout = properties.requestTimeout();
    }

    @Operation(operationId = "postTransfer")
    @ApiResponse(responseCode = "200", description = "Completed, or replayed (header Idempotent-Replayed: true)",
            content = @Content(schema = @Schema(implementation = TransferApi.TransferAnswer.class)))
    @BodyRefusals
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @ApiResponse(responseCode = "422", description = "Rejected: not enough funds; recorded, and replayed the same way",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiDocs.PROBLEM)))
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post
    CompletionStage<MutableHttpResponse<TransferApi.TransferAnswer>> post(@Valid @Body TransferApi.PostTransfer body,
                                                                          @Nullable @QueryValue String mode) {
        Deadline deadline = Deadline.after(requestTimeout);
        TransferRequest request = new TransferRequest(body.txId(), body.from(), body.to(),
                body.amount().longValueExact());
        ProcessingMode processingMode = TransactionService.parseMode(mode);
        return inFlight.run(PERMITS, () -> start(request, processingMode, deadline))
                .toCompletableFuture()
                .orTimeout(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS)
                .handle((result, failure) -> {
                    if (failure != null) {
                        throw GridFailures.translate(failure);
                    }
                    return respond(result);
                });
    }

    private CompletableFuture<TransferService.Result> start(TransferRequest request, ProcessingMode mode,
                                                            Deadline deadline) {
        try {
            return CompletableFuture.supplyAsync(() -> transfers.transfer(request, mode, deadline), blocking);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(Refusal.unavailable("This node is stopping; nothing was "
                    + "changed. Retry with the same id on another node.", Duration.ofSeconds(1)));
        }
    }

    /**
     * 200 for a completed transfer; for a rejected one, what its reason calls for: 422 (problem+json, with the
     * transfer) for funds and limits, 409 when a step's id was taken by another payload, 404 when an account was
     * gone. The replay header on a retry of a recorded transfer.
     */
    static MutableHttpResponse<TransferApi.TransferAnswer> respond(TransferService.Result result) {
        Transfer transfer = result.transfer();
        if (transfer.state() == TransferState.REJECTED) {
            switch (transfer.reason()) {
                case Transfer.ID_CONFLICT -> throw TransferService.conflict(transfer.txId(), transfer.from());
                case Transfer.SOURCE_NOT_FOUND -> throw Refusal.notFound("Account", transfer.from());
                case Transfer.DESTINATION_NOT_FOUND -> throw Refusal.notFound("Account", transfer.to());
                default -> {
                    // 422 below.
                }
            }
        }
        boolean completed = transfer.state() == TransferState.COMPLETED;
        MutableHttpResponse<TransferApi.TransferAnswer> response = HttpResponse
                .<TransferApi.TransferAnswer>status(completed ? HttpStatus.OK : HttpStatus.UNPROCESSABLE_ENTITY)
                .body(TransferApi.TransferAnswer.of(transfer))
                .contentType(completed ? MediaType.APPLICATION_JSON : Problem.MEDIA_TYPE);
        if (result.replayed()) {
            response.header(REPLAYED_HEADER, "true");
        }
        return response;
    }
}
