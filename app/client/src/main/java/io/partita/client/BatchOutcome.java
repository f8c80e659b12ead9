package io.partita.client;

/**
 * One item's answer in a batch: the result the single call would have given, or the error it would have thrown.
 * Exactly one of {@code result} and {@code error} is set.
 *
 * @param httpStatus the item's status as the node answered it, or 0 when no definite answer came
 * @param error      a {@link PartitaException} (a definite refusal: nothing changed), or an
 *                   {@link OutcomeUnknownException} when no definite answer came within the retry budget (the item may
 *                   or may not have been applied: send it again with the same txId)
 */
public record BatchOutcome(String txId, int httpStatus, TxResult result, RuntimeException error) {

    public boolean ok() {
        return error == null;
    }

    /** Whether the item's outcome is unknown ({@link OutcomeUnknownException}). */
    public boolean unknown() {
        return error instanceof OutcomeUnknownException;
    }
}
