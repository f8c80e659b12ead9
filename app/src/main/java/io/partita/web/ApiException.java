package io.partita.web;

import io.micronaut.http.HttpStatus;

import java.time.Duration;
import java.util.List;

/**
 * A request that cannot be served, with everything its problem+json answer says. Thrown by services and controllers;
 * {@link ApiExceptionHandler} renders it. Carries no stack trace: it is an answer, not a bug.
 */
public final class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String slug;
    private final String title;
    private final List<Problem.FieldError> errors;
    private final Duration retryAfter;

    private ApiException(HttpStatus status, String slug, String title, String detail,
                         List<Problem.FieldError> errors, Duration retryAfter) {
        super(detail, null, false, false);
        this.status = status;
        this.slug = slug;
        this.title = title;
        this.errors = List.copyOf(errors);
        this.retryAfter = retryAfter;
    }

    public static ApiException notFound(String what, String id) {
        return new ApiException(HttpStatus.NOT_FOUND, "not-found", what + " not found",
                "There is no " + what.toLowerCase() + " with id '" + id + "'.", List.of(), null);
    }

    public static ApiException conflict(String slug, String title, String detail) {
        return new ApiException(HttpStatus.CONFLICT, slug, title, detail, List.of(), null);
    }

    /** 410: what the request names existed and is gone for good (a worker's lease that ended). */
    public static ApiException gone(String slug, String title, String detail) {
        return new ApiException(HttpStatus.GONE, slug, title, detail, List.of(), null);
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, "bad-request", "Bad request", detail, List.of(), null);
    }

    /** A 400 of its own kind, so that a client can tell it from a malformed request by its type. */
    public static ApiException badRequest(String slug, String title, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, slug, title, detail, List.of(), null);
    }

    /** A request larger than this node will take at once, whatever its timing: 413. */
    public static ApiException tooLarge(String detail) {
        return new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "request-entity-too-large", "Request too large",
                detail, List.of(), null);
    }

    public static ApiException invalidField(String field, String message) {
        return invalidFields(List.of(new Problem.FieldError(field, message)));
    }

    public static ApiException invalidFields(List<Problem.FieldError> errors) {
        return new ApiException(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                errors.size() == 1 ? "The request has an invalid field." : "The request has invalid fields.", errors,
                null);
    }

    /** The cluster could not answer now but may soon: the client should retry after {@code retryAfter}. */
    public static ApiException unavailable(String detail, Duration retryAfter) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Service unavailable", detail,
                List.of(), retryAfter);
    }

    /**
     * The data of the partition that holds {@code what} is lost for now (every copy left at once, or it is on the other
     * side of a network split): whether it exists cannot be told, so it is neither found nor created until the data
     * is back.
     */
    public static ApiException partitionLost(String what, String id, int partition) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "partition-lost", "Partition lost",
                "The data of partition " + partition + ", which holds " + what.toLowerCase() + " '" + id + "', is not "
                        + "available: every copy of it left the cluster at once. Nothing was changed. Retry later; "
                        + "the data comes back when the members holding it rejoin.", List.of(), Duration.ofSeconds(5));
    }

    /** This answer with each field error's field named from an enclosing object: {@code amount} as {@code job.amount}. */
    public ApiException withFieldPrefix(String prefix) {
        return new ApiException(status, slug, title, getMessage(),
                errors.stream().map(error -> new Problem.FieldError(prefix + error.field(), error.message())).toList(),
                retryAfter);
    }

    public HttpStatus status() {
        return status;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    public Problem problem() {
        return new Problem(Problem.TYPE_BASE + slug, title, status.getCode(), getMessage(), errors);
    }
}
