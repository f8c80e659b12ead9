package io.partita.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.HttpVersion;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;

import java.util.List;
import java.util.Locale;

/**
 * What a request's head must be before anything else reads it, each refused as problem+json whoever asks, before
 * Micronaut Security's filter (one filter for all three, since each filter costs the hottest route a little):
 * <ul>
 *   <li><b>A target that is not a valid URI</b> ({@code /accounts/%zz}: a {@code %} without two hexadecimal digits):
 *   400. Micronaut cannot build a request from such a target: it handles the failure on a stand-in request for
 *   {@code /} with no headers at all, and runs the filters on that one, where the security filter found neither the
 *   path nor the credentials and answered 401 to every caller, the admin included. No request a client sends looks
 *   like the stand-in, since every client sends a {@code Host} header.</li>
 *   <li><b>An HTTP/1.1 request without exactly one {@code Host} header</b>: 400, as RFC 9112 (3.2) has a server
 *   answer it.</li>
 *   <li><b>A POST, PUT or PATCH with a body that does not say it is JSON</b>: 415. Micronaut refuses a Content-Type it
 *   cannot read with 415, but reads a body with no Content-Type at all as JSON; every such route of Partita takes
 *   JSON, and a request that does not declare its body is answered 415 too, before the route runs. A call without a
 *   body (a lease renewal) needs no Content-Type.</li>
 * </ul>
 * <b>Threads:</b> on the request's event loop; it keeps nothing.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
class RequestHead implements Ordered {

    private static final List<HttpMethod> WITH_BODY = List.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH);

    @RequestFilter
    @Nullable
    HttpResponse<Problem> check(HttpRequest<?> request) {
        HttpHeaders headers = request.getHeaders();
        if (headers.isEmpty() && "/".equals(request.getPath())) {
            return refuse(HttpStatus.BAD_REQUEST, "The request could not be read: its target is not a valid URI (a % "
                    + "must be followed by two hexadecimal digits, and spaces and other characters outside a URI "
                    + "escaped), or it has no headers.");
        }
        if (request.getHttpVersion() == HttpVersion.HTTP_1_1 && headers.getAll(HttpHeaders.HOST).size() != 1) {
            return refuse(HttpStatus.BAD_REQUEST, "An HTTP/1.1 request must carry exactly one Host header.");
        }
        if (WITH_BODY.contains(request.getMethod()) && request.getContentType().isEmpty() && hasBody(request)) {
            return refuse(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "The body must be sent as application/json, and the "
                    + "request must say so in its Content-Type header.");
        }
        return null;
    }

    private static HttpResponse<Problem> refuse(HttpStatus status, String detail) {
        return HttpResponse.<Problem>status(status)
                .body(new Problem(Problem.TYPE_BASE + status.getReason().toLowerCase(Locale.ROOT)
                        .replace(' ', '-'), status.getReason(), status.getCode(), detail, null))
                .contentType(Problem.MEDIA_TYPE);
    }

    /** Whether a body follows: a call with none (a lease renewal) needs no Content-Type. */
    private static boolean hasBody(HttpRequest<?> request) {
        return request.getContentLength() > 0 || request.getHeaders().contains(HttpHeaders.TRANSFER_ENCODING);
    }

    /** Before Micronaut Security's filter, which would answer the stand-in 401. */
    @Override
    public int getOrder() {
        return ServerFilterPhase.SECURITY.before();
    }
}
