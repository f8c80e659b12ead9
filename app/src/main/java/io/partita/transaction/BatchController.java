package io.partita.transaction;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.partita.web.InFlightLimit;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * {@code POST /transactions/batch}: up to {@link #MAX_ITEMS} transactions, answered in order, each exactly as its
 * single call would have been. An invalid item is answered 400 on its own and the others still run.
 * <b>Threads:</b> Micronaut calls it on the Netty event loops, many requests at once; it validates and hands the batch
 * to {@link BatchService} without blocking, and the answer completes on whichever thread completes the batch. It keeps
 * only final references to singletons.
 */
@Controller("/transactions/batch")
class BatchController {

    static final int MAX_ITEMS = 10_000;

    private final BatchService batches;
    private final InFlightLimit inFlight;
    private final TransactionMeters meters;

    BatchController(BatchService batches, InFlightLimit inFlight, TransactionMeters meters) {
        this.batches = batches;
        this.inFlight = inFlight;
        this.meters = meters;
    }

    @Operation(operationId = "postBatch")
    @ApiResponse(responseCode = "200", description = "One answer per item, in order, each with its own httpStatus")
    @BodyRefusals
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post
    CompletionStage<List<TransactionApi.BatchAnswer>> post(@Body BatchItems body, @Nullable @QueryValue String mode) {
        if (body.tooMany()) {
            throw Refusal.malformed("A batch holds at most " + MAX_ITEMS + " transactions; this one has "
                    + body.count() + ".");
        }
        List<TransactionApi.BatchItem> items = body.items();
        meters.recordBatch(items.size());
        ProcessingMode processingMode = TransactionService.parseMode(mode);
        long now = batches.now();
        TransactionApi.BatchAnswer[] answers = new TransactionApi.BatchAnswer[items.size()];
        List<Integer> valid = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Refusal invalid = validate(items.get(i));
            if (invalid == null) {
                valid.add(i);
            } else {
                TransactionApi.BatchItem item = items.get(i);
                answers[i] = TransactionApi.BatchAnswer.problem(item == null ? null : item.txId(),
                        item == null ? null : item.accountId(), invalid);
            }
        }
        if (valid.size() > inFlight.max()) {
            // It could never be admitted whole, and retrying would not change that: a client error, not a 503.
            throw Refusal.tooLarge("This node takes at most " + inFlight.max() + " transactions at once "
                    + "(partita.max-in-flight); this batch has " + valid.size() + ". Send it in smaller batches.");
        }
        List<String> accountIds = valid.stream().map(i -> items.get(i).accountId()).toList();
        List<TxRequest> requests = valid.stream().map(i -> request(items.get(i), now)).toList();
        return inFlight.run(Math.max(1, valid.size()), () -> batches.apply(accountIds, requests, processingMode))
                .thenApply(outcomes -> {
                    for (int k = 0; k < valid.size(); k++) {
                        int index = valid.get(k);
                        TransactionApi.BatchItem item = items.get(index);
                        TxOutcome outcome = outcomes.get(k);
                        answers[index] = outcome == null
                                ? TransactionApi.BatchAnswer.problem(item.txId(), item.accountId(), Refusal.unavailable(
                                "No definite answer could be had for this item. Retry it with the same txId.",
                                Duration.ofSeconds(1)))
                                : TransactionApi.BatchAnswer.of(Reply.of(item.accountId(), item.txId(), outcome,
                                        batches::partitionOf));
                    }
                    return List.of(answers);
                });
    }

    private static Refusal validate(TransactionApi.BatchItem item) {
        if (item == null) {
            return Refusal.malformed("A batch item must be a transaction object.");
        }
        List<Refusal.FieldError> errors = TransactionChecks.ofItem(item);
        return errors.isEmpty() ? null : Refusal.invalidFields(errors);
    }

    private static TxRequest request(TransactionApi.BatchItem item, long now) {
        return TxRequest.of(item.txId(), TxType.valueOf(item.type()), item.amount().longValueExact(), now);
    }
}
