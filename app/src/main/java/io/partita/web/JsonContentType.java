package io.partita.web;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

import java.util.List;

/**
 * A POST, PUT or PATCH must say its body is JSON. Micronaut refuses a Content-Type it cannot read with 415, but
 * reads a body with no Content-Type at all as JSON; every such route of Partita takes JSON, and a request that does
 * not declare its body is answered 415 too, before the route runs. A call without a body needs no Content-Type.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
class JsonContentType {

    private static final List<HttpMethod> WITH_BODY = List.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH);

    @RequestFilter
    @Nullable
    HttpResponse<Problem> requireContentType(HttpRequest<?> request) {
        if (!WITH_BODY.contains(request.getMethod()) || request.getContentType().isPresent() || !hasBody(request)) {
            return null;
        }
        return HttpResponse.<Problem>status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .body(new Problem(Problem.TYPE_BASE + "unsupported-media-type", "Unsupported Media Type", 415,
                        "The body must be sent as application/json, and the request must say so in its "
                                + "Content-Type header.", null))
                .contentType(Problem.MEDIA_TYPE);
    }

    /** Whether a body follows: a call with none (a lease renewal) needs no Content-Type. */
    private static boolean hasBody(HttpRequest<?> request) {
        return request.getContentLength() > 0 || request.getHeaders().contains(HttpHeaders.TRANSFER_ENCODING);
    }
}
