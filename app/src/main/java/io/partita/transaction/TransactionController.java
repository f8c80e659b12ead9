package io.partita.transaction;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.partita.account.AccountService;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.InFlightLimit;
import io.partita.web.Problem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.ToIntFunction;

/**
 * One transaction on one account over HTTP ({@code POST /accounts/{id}/transactions}); any node takes it. Its fields
 * are checked by hand ({@link TransactionChecks}), not by the bean validator's interceptor.
 * <b>Threads:</b> Micronaut calls it on the Netty event loops, many requests at once; it keeps only final references
 * to singletons and never waits on the grid.
 */
@Controller("/accounts")
class TransactionController {

    static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private final TransactionService transactions;
    private final AccountService accounts;
    private final InFlightLimit inFlight;

    TransactionController(TransactionService transactions, AccountService accounts, InFlightLimit inFlight) {
        this.transactions = transactions;
        this.accounts = accounts;
        this.inFlight = inFlight;
    }

    @Operation(operationId = "postTransaction")
    @ApiResponse(responseCode = "200", description = "Applied, or replayed (header Idempotent-Replayed: true)",
            content = @Content(schema = @Schema(implementation = TransactionApi.TransactionAnswer.class)))
    @BodyRefusals
    @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @ApiResponse(responseCode = "422",
            description = "Rejected: below the overdraft limit; recorded, and replayed the same way",
            content = @Content(schema = @Schema(implementation = TransactionApi.TransactionAnswer.class)))
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post("/{id}/transactions")
    CompletionStage<MutableHttpResponse<TransactionApi.TransactionAnswer>> post(
            @PathVariable String id, @Body TransactionApi.PostTransaction body, @Nullable @QueryValue String mode) {
        List<Refusal.FieldError> errors = TransactionChecks.ofCall(id, body);
        if (!errors.isEmpty()) {
            throw Refusal.invalidFields(errors);
        }
        TxRequest request = TxRequest.of(body.txId(), TxType.valueOf(body.type()), body.amount().longValueExact(),
                accounts.now());
        ProcessingMode processingMode = TransactionService.parseMode(mode);
        return inFlight.run(1, () -> transactions.apply(id, request, processingMode))
                .thenApply(outcome -> respond(id, body.txId(), outcome, accounts::partitionOf));
    }

    /** The HTTP answer to an outcome: 200 applied, 422 rejected, 409 txId conflict, 404 no account. */
    static MutableHttpResponse<TransactionApi.TransactionAnswer> respond(String accountId, String txId,
                                                                     TxOutcome outcome,
                                                                     ToIntFunction<String> partition) {
        Reply reply = Reply.of(accountId, txId, outcome, partition);
        if (reply.error() != null) {
            throw reply.error();
        }
        MutableHttpResponse<TransactionApi.TransactionAnswer> response =
                HttpResponse.<TransactionApi.TransactionAnswer>status(HttpStatus.valueOf(reply.httpStatus()))
                        .body(reply.answer())
                        .contentType(reply.httpStatus() == 200 ? MediaType.APPLICATION_JSON : Problem.MEDIA_TYPE);
        if (reply.replayed()) {
            response.header(REPLAYED_HEADER, "true");
        }
        return response;
    }
}
