package io.partita.client;

import java.util.List;
import java.util.stream.Collectors;

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
    private final List<FieldError> fieldErrors;

    /** One field at fault in an invalid request (a 400's {@code errors}): its JSON path and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    public PartitaException(int status, String type, String title, String detail) {
        this(status, type, title, detail, List.of());
    }

    public PartitaException(int status, String type, String title, String detail, List<FieldError> fieldErrors) {
        super(message(status, title, detail, fieldErrors));
        this.status = status;
        this.type = type;
        this.title = title;
        this.fieldErrors = List.copyOf(fieldErrors);
    }

    private static String message(int status, String title, String detail, List<FieldError> fieldErrors) {
        String message = status + " " + (title == null ? "" : title) + (detail == null ? "" : ": " + detail);
        return fieldErrors.isEmpty() ? message : message + " (" + fieldErrors.stream()
                .map(error -> error.field() + ": " + error.message()).collect(Collectors.joining("; ")) + ")";
    }

    /** The fields at fault when the request was invalid (400), each with what is wrong; empty otherwise. */
    public List<FieldError> fieldErrors() {
        return fieldErrors;
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
