package io.partita.client;

/**
 * A definite refusal by a node (problem+json, RFC 9457): nothing was changed, and sending the same call again gets
 * the same refusal. Subclasses name the refusals a caller handles: {@link NotFoundException},
 * {@link IdReusedException}, {@link AlreadyExistsException}, {@link PartitionLostException},
 * {@link AuthenticationException}, {@link LeaseLostException}; every other 4xx is this class itself (bad input: 400,
 * 413, 415, 422).
 */
public class PartitaException extends RuntimeException {

    private final int status;
    private final String type;
    private final String title;

    public PartitaException(int status, String type, String title, String detail) {
        super(status + " " + (title == null ? "" : title) + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.type = type;
        this.title = title;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The problem type URI, e.g. {@code https://partita.dev/problems/not-found}, or null. */
    public String type() {
        return type;
    }

    public String title() {
        return title;
    }
}
