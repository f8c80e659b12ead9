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
import io.partita.web.ApiException;
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
                case Transfer.SOURCE_NOT_FOUND -> throw ApiException.notFound("Account", transfer.from());
                case Transfer.DESTINATION_NOT_FOUND -> throw ApiException.notFound("Account", transfer.to());
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
