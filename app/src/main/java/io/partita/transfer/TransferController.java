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
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.account.AccountService;
import io.partita.web.Problem;
import jakarta.validation.Valid;

/**
 * {@code POST /transfers}. A transfer blocks while it runs its steps (and, in locked mode, holds two locks), so it runs
 * on the blocking executor, never on an event loop.
 */
@Controller("/transfers")
@Validated
class TransferController {

    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private final TransferService transfers;

    TransferController(TransferService transfers) {
        this.transfers = transfers;
    }

    @Post
    @ExecuteOn(TaskExecutors.BLOCKING)
    MutableHttpResponse<TransferApi.TransferAnswer> post(@Valid @Body TransferApi.PostTransfer body,
                                                         @Nullable @QueryValue String mode) {
        TransferService.Result result = transfers.transfer(
                new TransferRequest(body.txId(), body.from(), body.to(), body.amount().longValueExact()),
                AccountService.parseMode(mode));
        return respond(result);
    }

    /** 200 for a completed transfer, 422 (problem+json) for a rejected one; the replay header on a retry. */
    static MutableHttpResponse<TransferApi.TransferAnswer> respond(TransferService.Result result) {
        boolean completed = result.transfer().state() == TransferState.COMPLETED;
        MutableHttpResponse<TransferApi.TransferAnswer> response = HttpResponse
                .<TransferApi.TransferAnswer>status(completed ? HttpStatus.OK : HttpStatus.UNPROCESSABLE_ENTITY)
                .body(TransferApi.TransferAnswer.of(result.transfer()))
                .contentType(completed ? MediaType.APPLICATION_JSON : Problem.MEDIA_TYPE);
        if (result.replayed()) {
            response.header(REPLAYED_HEADER, "true");
        }
        return response;
    }
}
