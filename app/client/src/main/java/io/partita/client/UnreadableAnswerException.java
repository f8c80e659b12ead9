package io.partita.client;

/**
 * A node answered, but not in a form this client reads: a field it needs is missing or of another type, or the body
 * is not JSON (a node of another version, or a proxy in between). The node did decide: for a write, {@link #status()}
 * says how, and sending the same txId again answers the same way.
 */
public final class UnreadableAnswerException extends RuntimeException {

    private final int status;

    UnreadableAnswerException(String what, int status, String body, RuntimeException cause) {
        super(what + ": the node answered " + status + " with a body this client cannot read (" + cause.getMessage()
                + "): " + (body.length() > 200 ? body.substring(0, 200) + "..." : body), cause);
        this.status = status;
    }

    /** The HTTP status of the answer. */
    public int status() {
        return status;
    }
}
