package io.partita.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;

/**
 * A request whose target is not a valid URI ({@code /accounts/%zz}: a {@code %} without two hexadecimal digits) is
 * answered 400, with or without credentials. Micronaut cannot build a request from such a target: it handles the
 * failure on a stand-in request for {@code /} with no headers at all, and runs the filters on that one. The security
 * filter then found neither the path nor the credentials, and answered 401 to every caller, the admin included. This
 * filter runs before it and answers the stand-in itself.
 *
 * <p>No request a client sends looks like the stand-in: HTTP/1.1 requires a {@code Host} header (RFC 9112 has a
 * request without one answered 400), and every client sends it. A headerless {@code GET /} over HTTP/1.0 is answered
 * 400 as well, which this answer's detail covers. <b>Threads:</b> on the request's event loop; it keeps nothing.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
class UnreadableTarget implements Ordered {

    @RequestFilter
    @Nullable
    HttpResponse<Problem> refuse(HttpRequest<?> request) {
        if (!request.getHeaders().isEmpty() || !"/".equals(request.getPath())) {
            return null;
        }
        return HttpResponse.<Problem>status(HttpStatus.BAD_REQUEST)
                .body(new Problem(Problem.TYPE_BASE + "bad-request", "Bad Request", 400,
                        "The request could not be read: its target is not a valid URI (a % must be followed by two "
                                + "hexadecimal digits, and spaces and other characters outside a URI escaped), or "
                                + "it has no Host header.", null))
                .contentType(Problem.MEDIA_TYPE);
    }

    /** Before Micronaut Security's filter, which would answer the stand-in 401. */
    @Override
    public int getOrder() {
        return ServerFilterPhase.SECURITY.before();
    }
}
