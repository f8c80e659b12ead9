package io.partita.refusal;

import java.time.Duration;
import java.util.List;

/**
 * A request that was refused, in the domain's words: what kind of refusal, about what, and a detail a client can act
 * on. Services and controllers throw it; the web layer alone turns it into an answer ({@code web.Refusals}: one table
 * from kind to HTTP status and problem type). It carries no stack trace: it is an answer, not a bug.
 */
public final class Refusal extends RuntimeException {

    /** Every way a request can be refused. */
    public enum Kind {
        /** The request as a whole cannot be read. */
        MALFORMED,
        /** Named fields of the request are invalid ({@link #fields()}). */
        INVALID,
        /** What the request names does not exist ({@link #subject()} says what). */
        NOT_FOUND,
        /** What the request would create exists already. */
        EXISTS,
        /** An id the client chose was used before with another payload. */
        ID_REUSED,
        /** A job of the same type is running and the new one is not concurrent. */
        JOB_RUNNING,
        /** What the request names existed and is gone for good (a worker's lease that ended). */
        LEASE_LOST,
        /** A SQL statement that the node does not run (not a single bounded read). */
        SQL_REFUSED,
        /** A SQL statement the engine could not plan. */
        SQL_INVALID,
        /** A SQL statement that ran past its time. */
        SQL_TOO_LONG,
        /** More than the node takes at once, whatever the timing. */
        TOO_LARGE,
        /** The cluster could not answer now and may soon: retry after {@link #retryAfter()}. */
        UNAVAILABLE,
        /** Every copy of the partition that holds the data is gone for now; whether it exists cannot be told. */
        PARTITION_LOST
    }

    /** A field at fault: its name as the client wrote it ({@code job.amount}) and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    private final Kind kind;
    private final String subject;
    private final List<FieldError> fields;
    private final Duration retryAfter;

    private Refusal(Kind kind, String subject, String detail, List<FieldError> fields, Duration retryAfter) {
        super(detail, null, false, false);
        this.kind = kind;
        this.subject = subject;
        this.fields = List.copyOf(fields);
        this.retryAfter = retryAfter;
    }

    private static Refusal of(Kind kind, String subject, String detail) {
        return new Refusal(kind, subject, detail, List.of(), null);
    }

    public static Refusal notFound(String what, String id) {
        return of(Kind.NOT_FOUND, what, "There is no " + what.toLowerCase() + " with id '" + id + "'.");
    }

    public static Refusal exists(String what, String detail) {
        return of(Kind.EXISTS, what, detail);
    }

    /** {@code what}: the kind of id, as in "Transaction id reused". */
    public static Refusal idReused(String what, String detail) {
        return of(Kind.ID_REUSED, what, detail);
    }

    public static Refusal jobRunning(String detail) {
        return of(Kind.JOB_RUNNING, "Job", detail);
    }

    public static Refusal leaseLost(String detail) {
        return of(Kind.LEASE_LOST, "Lease", detail);
    }

    public static Refusal malformed(String detail) {
        return of(Kind.MALFORMED, null, detail);
    }

    /**
     * A refusal of a SQL statement: {@link Kind#SQL_REFUSED}, {@link Kind#SQL_INVALID} or {@link Kind#SQL_TOO_LONG}.
     */
    public static Refusal sql(Kind kind, String detail) {
        return of(kind, "SQL", detail);
    }

    public static Refusal tooLarge(String detail) {
        return of(Kind.TOO_LARGE, null, detail);
    }

    public static Refusal invalidField(String field, String message) {
        return invalidFields(List.of(new FieldError(field, message)));
    }

    public static Refusal invalidFields(List<FieldError> errors) {
        return new Refusal(Kind.INVALID, null,
                errors.size() == 1 ? "The request has an invalid field." : "The request has invalid fields.", errors,
                null);
    }

    /** The cluster could not answer now but may soon: the client should retry after {@code retryAfter}. */
    public static Refusal unavailable(String detail, Duration retryAfter) {
        return new Refusal(Kind.UNAVAILABLE, null, detail, List.of(), retryAfter);
    }

    /**
     * The data of the partition that holds {@code what} is lost for now (every copy left at once, or it is on the other
     * side of a network split): whether it exists cannot be told, so it is neither found nor created until the data
     * is back.
     */
    public static Refusal partitionLost(String what, String id, int partition) {
        return new Refusal(Kind.PARTITION_LOST, what,
                "The data of partition " + partition + ", which holds " + what.toLowerCase() + " '" + id + "', is not "
                        + "available: every copy of it left the cluster at once. Nothing was changed. Retry later; "
                        + "the data comes back when the members holding it rejoin.", List.of(), Duration.ofSeconds(5));
    }

    /**
     * This refusal with each field error's field named from an enclosing object: {@code amount} as {@code
     * job.amount}.
     */
    public Refusal withFieldPrefix(String prefix) {
        return new Refusal(kind, subject, getMessage(),
                fields.stream().map(error -> new FieldError(prefix + error.field(), error.message())).toList(),
                retryAfter);
    }

    /** Whether the same request may succeed later: the cluster was busy, or the data is away for now. */
    public boolean isTransient() {
        return kind == Kind.UNAVAILABLE || kind == Kind.PARTITION_LOST;
    }

    public Kind kind() {
        return kind;
    }

    /** What the refusal is about ("Account", "Job"), or null where the kind says it all. */
    public String subject() {
        return subject;
    }

    public String detail() {
        return getMessage();
    }

    public List<FieldError> fields() {
        return fields;
    }

    /** How long a client should wait before it retries, or null when retrying does not help. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
