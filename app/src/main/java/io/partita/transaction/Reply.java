package io.partita.transaction;

import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxStatus;
import io.partita.refusal.Refusal;
import io.partita.web.Refusals;

import java.util.function.ToIntFunction;

/**
 * What one transaction answers over HTTP, whether it came alone or in a batch: 200 applied, 422 rejected (both
 * replayable), or a refusal (a txId reused with another payload, no such account, its partition's data lost) with
 * the status {@link Refusals} gives it.
 *
 * @param answer the body of a 200 or 422, or null when {@code error} says what went wrong
 * @param error  the refusal, or null
 */
record Reply(int httpStatus, boolean replayed, TransactionApi.TransactionAnswer answer, Refusal error) {

    static Reply of(String accountId, String txId, TxOutcome outcome, ToIntFunction<String> partition) {
        return switch (outcome.kind()) {
            case NOT_FOUND -> refused(Refusal.notFound("Account", accountId));
            case PARTITION_LOST -> refused(Refusal.partitionLost("Account", accountId,
                    partition.applyAsInt(accountId)));
            case CONFLICT -> refused(Refusal.idReused("Transaction", "Transaction id '" + txId
                    + "' was already used on account '" + accountId + "' with another payload."));
            case RECORDED, REPLAYED -> {
                JournalEntry entry = outcome.entry();
                yield new Reply(entry.status() == TxStatus.APPLIED ? 200 : 422,
                        outcome.kind() == TxOutcome.Kind.REPLAYED, TransactionApi.TransactionAnswer.of(entry), null);
            }
        };
    }

    private static Reply refused(Refusal refusal) {
        return new Reply(Refusals.status(refusal), false, null, refusal);
    }
}
