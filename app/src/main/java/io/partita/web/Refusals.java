package io.partita.web;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * The one table from a {@link Refusal} to its HTTP answer: status, problem type and title, then the problem+json body
 * with {@code Retry-After} when the refusal has a time to retry after. Nothing else in the node chooses a status for
 * a refusal; services and controllers only say which refusal it is.
 */
@Produces(Problem.MEDIA_TYPE)
@Singleton
@Requires(classes = {Refusal.class, ExceptionHandler.class})
public final class Refusals implements ExceptionHandler<Refusal, HttpResponse<Problem>> {

    /** A refusal's place in the API: its status, the last segment of its problem type, and its title. */
    record Answer(HttpStatus status, String slug, String title) {
    }

    static Answer answer(Refusal refusal) {
        String subject = refusal.subject();
        return switch (refusal.kind()) {
            case MALFORMED -> new Answer(HttpStatus.BAD_REQUEST, "bad-request", "Bad request");
            case INVALID -> new Answer(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request");
            case SQL_REFUSED -> new Answer(HttpStatus.BAD_REQUEST, "sql-refused", "SQL refused");
            case SQL_INVALID -> new Answer(HttpStatus.BAD_REQUEST, "sql-invalid", "SQL query invalid");
            case SQL_TOO_LONG -> new Answer(HttpStatus.BAD_REQUEST, "sql-timeout", "SQL query too long");
            case NOT_FOUND -> new Answer(HttpStatus.NOT_FOUND, "not-found", subject + " not found");
            case EXISTS -> new Answer(HttpStatus.CONFLICT, subject.toLowerCase() + "-exists", subject + " exists");
            case ID_REUSED -> new Answer(HttpStatus.CONFLICT, "txid-conflict", subject + " id reused");
            case JOB_RUNNING -> new Answer(HttpStatus.CONFLICT, "job-running", "A job of this type is running");
            case LEASE_LOST -> new Answer(HttpStatus.GONE, "lease-lost", "Lease lost");
            case TOO_LARGE -> new Answer(HttpStatus.REQUEST_ENTITY_TOO_LARGE, "request-entity-too-large",
                    "Request too large");
            case UNAVAILABLE -> new Answer(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Service unavailable");
            case PARTITION_LOST -> new Answer(HttpStatus.SERVICE_UNAVAILABLE, "partition-lost", "Partition lost");
        };
    }

    /** The HTTP status of {@code refusal}. */
    public static int status(Refusal refusal) {
        return answer(refusal).status().getCode();
    }

    /** The problem+json body of {@code refusal}. */
    public static Problem problem(Refusal refusal) {
        Answer answer = answer(refusal);
        List<Problem.FieldError> errors = refusal.fields().stream()
                .map(error -> new Problem.FieldError(error.field(), error.message())).toList();
        return new Problem(Problem.TYPE_BASE + answer.slug(), answer.title(), answer.status().getCode(),
                refusal.detail(), errors);
    }

    /** The whole answer to {@code refusal}: status, body, and {@code Retry-After} when it has one. */
    public static MutableHttpResponse<Problem> render(Refusal refusal) {
        return render(refusal, HttpResponse.status(answer(refusal).status()));
    }

    /** {@code response} made the answer to {@code refusal}: its status, body and {@code Retry-After} replaced. */
    static MutableHttpResponse<Problem> render(Refusal refusal, MutableHttpResponse<?> response) {
        response.status(answer(refusal).status());
        if (refusal.retryAfter() != null) {
            response.header("Retry-After", String.valueOf(Math.max(1, refusal.retryAfter().toSeconds())));
        }
        return response.body(problem(refusal)).contentType(Problem.MEDIA_TYPE);
    }

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler declares a raw HttpRequest; HttpRequest<?> would not override it
    public HttpResponse<Problem> handle(HttpRequest request, Refusal refusal) {
        return render(refusal);
    }
}
