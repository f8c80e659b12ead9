package io.partita.web;

import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.partita.node.ContextStops;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders every error Micronaut produces itself (malformed JSON, a failed constraint, an unknown route, a body too
 * large, a wrong media type, an unhandled exception) as problem+json. The detail is written here from the status and
 * the failed fields, never copied from an exception message, so no class name or stack trace reaches a client.
 */
@Singleton
@Replaces(ErrorResponseProcessor.class)
class ProblemResponseProcessor implements ErrorResponseProcessor<Problem> {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemResponseProcessor.class);
    /** Framework messages may quote parser internals, so a conversion error says only that the value did not fit. */
    private static final String WRONG_TYPE = "has a value of the wrong type or format";

    private final BeanContext beans;

    ProblemResponseProcessor(BeanContext beans) {
        this.beans = beans;
    }

    @Override
    public MutableHttpResponse<Problem> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        if (response.getStatus().getCode() >= 500 && ContextStops.stopping(beans)) {
            // Whatever failed while the node stops (a member already gone, an executor that refuses), the client
            // learns the one thing it can act on: retry elsewhere.
            LOG.debug("Failure on {} {} while the node stops", context.getRequest().getMethod(),
                    context.getRequest().getPath(), context.getRootCause().orElse(null));
            return Refusals.render(GridFailures.memberStopped(), response);
        }
        HttpStatus status = headTooLong(context, response.getStatus());
        response.status(status);
        List<Problem.FieldError> fieldErrors = fieldErrors(context);
        if (status.getCode() >= 500) {
            context.getRootCause().ifPresent(cause -> LOG.error("Unhandled failure on {} {}",
                    context.getRequest().getMethod(), context.getRequest().getPath(), cause));
        }
        Problem problem = new Problem(Problem.TYPE_BASE + slug(status, fieldErrors), title(status, fieldErrors),
                status.getCode(), detail(status, fieldErrors, context), fieldErrors);
        return response.body(problem).contentType(Problem.MEDIA_TYPE);
    }

    private static List<Problem.FieldError> fieldErrors(ErrorContext context) {
        // A field read with the wrong JSON shape (StrictJson) fails the whole body's conversion; its own answer,
        // naming the field, travels as the cause.
        for (Throwable cause = context.getRootCause().orElse(null); cause != null; cause = cause.getCause()) {
            if (cause instanceof Refusal refused && !refused.fields().isEmpty()) {
                return Refusals.problem(refused).errors();
            }
        }
        List<Problem.FieldError> fields = new ArrayList<>();
        for (Error error : context.getErrors()) {
            error.getPath().map(ProblemResponseProcessor::fieldName).ifPresent(field ->
                    fields.add(new Problem.FieldError(field, WRONG_TYPE)));
        }
        return fields;
    }

    /**
     * Micronaut answers 413 to every request Netty's decoder found too long, the request line and the headers
     * included; those are a 414 and a 431 (RFC 9110, RFC 6585), so that a client can tell what to shorten.
     */
    private static HttpStatus headTooLong(ErrorContext context, HttpStatus status) {
        if (status == HttpStatus.REQUEST_ENTITY_TOO_LARGE
                && context.getRequest() instanceof NettyHttpRequest<?> netty) {
            Throwable cause = netty.getNativeRequest().decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                return HttpStatus.REQUEST_URI_TOO_LONG;
            }
            if (cause instanceof TooLongHttpHeaderException) {
                return HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
            }
        }
        return status;
    }

    /** A conversion error names its argument as a JSON pointer ({@code /limit}); the client knows it as a name. */
    static String fieldName(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }


    private static String slug(HttpStatus status, List<Problem.FieldError> fieldErrors) {
        if (!fieldErrors.isEmpty()) {
            return "invalid-request";
        }
        return status.getReason().toLowerCase(Locale.ROOT).replace(' ', '-');
    }

    private static String title(HttpStatus status, List<Problem.FieldError> fieldErrors) {
        return fieldErrors.isEmpty() ? status.getReason() : "Invalid request";
    }

    private static String detail(HttpStatus status, List<Problem.FieldError> fieldErrors, ErrorContext context) {
        if (!fieldErrors.isEmpty()) {
            return fieldErrors.size() == 1 ? "The request has an invalid field." : "The request has invalid fields.";
        }
        return switch (status) {
            case BAD_REQUEST -> "The request could not be read: the body must be well-formed JSON of the documented "
                    + "shape, with whole numbers for amounts.";
            // The path is not echoed: the client has it, and echoing it makes any text look like the node's own.
            case NOT_FOUND -> "There is no resource at this path.";
            // A method HTTP does not define is not named: Micronaut knows it only as CUSTOM.
            case METHOD_NOT_ALLOWED -> context.getRequest().getMethod() == HttpMethod.CUSTOM
                    ? "This resource does not accept this method."
                    : "This resource does not accept " + context.getRequest().getMethod() + ".";
            case UNSUPPORTED_MEDIA_TYPE -> "The body must be sent as application/json.";
            case NOT_ACCEPTABLE -> "This resource answers in application/json only.";
            case REQUEST_ENTITY_TOO_LARGE -> "The request body is larger than this node accepts.";
            case REQUEST_URI_TOO_LONG -> "The request line (method, path and query) is longer than this node accepts.";
            case REQUEST_HEADER_FIELDS_TOO_LARGE -> "The request headers are larger than this node accepts.";
            default -> status.getCode() >= 500
                    ? "The node could not complete the request. It has been logged; retrying with the same id is safe."
                    : status.getReason() + ".";
        };
    }
}
