package io.partita.client;

/**
 * The retry budget ran out before any node gave a definite answer (connection errors, timeouts, 503 busy). For a
 * write the outcome is unknown: the transaction may or may not have been applied. Sending it again with the same
 * {@link #txId()} is safe and answers what happened (exactly once), so that is what to do once the cluster is back.
 */
public final class OutcomeUnknownException extends RuntimeException {

    private final String txId;
    private final int attempts;

    OutcomeUnknownException(String what, String txId, int attempts, Throwable last) {
        super(what + (txId == null ? "" : " (txId " + txId + ")") + ": no definite answer after " + attempts
                + " attempt(s) within the retry budget" + (last == null ? "" : "; last: " + last.getMessage()), last);
        this.txId = txId;
        this.attempts = attempts;
    }

    /** The id to retry with, or null for a read. */
    public String txId() {
        return txId;
    }

    public int attempts() {
        return attempts;
    }
}
