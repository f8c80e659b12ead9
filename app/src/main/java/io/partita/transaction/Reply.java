package io.partita.transaction;

import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxStatus;
import io.partita.web.ApiException;

import java.util.function.ToIntFunction;

/**
 * What one transaction answers over HTTP, whether it came alone or in a batch: 200 applied, 422 rejected (both
 * replayable), 409 a txId reused with another payload, 404 no such account, 503 its partition's data lost.
 *
 * @param answer the body of a 200 or 422, or null when {@code error} says what went wrong
 * @param error  the problem of a 404 or 409, or null
 */
record Reply(int httpStatus, boolean replayed, TransactionApi.TransactionAnswer answer, ApiException error) {

    static Reply of(String accountId, String txId, TxOutcome outcome, ToIntFunction<String> partition) {
        return switch (outcome.kind()) {
            case NOT_FOUND -> new Reply(404, false, null, notFound(accountId));
            case PARTITION_LOST -> new Reply(503, false, null, ApiException.partitionLost("Account", accountId,
                    partition.applyAsInt(accountId)));
            case CONFLICT -> new Reply(409, false, null, ApiException.conflict("txid-conflict",
                    "Transaction id reused", "Transaction id '" + txId + "' was already used on account '"
                            + accountId + "' with another payload."));
            case RECORDED, REPLAYED -> {
                JournalEntry entry = outcome.entry();
                yield new Reply(entry.status() == TxStatus.APPLIED ? 200 : 422,
                        outcome.kind() == TxOutcome.Kind.REPLAYED, TransactionApi.TransactionAnswer.of(entry), null);
            }
        };
    }

    static ApiException notFound(String accountId) {
        return ApiException.notFound("Account", accountId);
    }
}
