package io.partita.client;

/**
 * One item's answer in a batch: the result the single call would have given, or the error it would have thrown.
 * Exactly one of {@code result} and {@code error} is set.
 */
public record BatchOutcome(String txId, int httpStatus, TxResult result, PartitaException error) {

    public boolean ok() {
        return error == null;
    }
}
