package io.partita.web;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/**
 * Renders an {@link ApiException} as problem+json, with {@code Retry-After} when it has one.
 * <b>Threads:</b> Micronaut calls it on the thread that handles the failed request (an event loop or the blocking
 * pool), many at once; it holds no state, so concurrent requests share nothing.
 */
@Produces(Problem.MEDIA_TYPE)
@Singleton
@Requires(classes = {ApiException.class, ExceptionHandler.class})
class ApiExceptionHandler implements ExceptionHandler<ApiException, HttpResponse<Problem>> {

    @Override
    public HttpResponse<Problem> handle(HttpRequest request, ApiException exception) {
        return render(exception);
    }

    static MutableHttpResponse<Problem> render(ApiException exception) {
        MutableHttpResponse<Problem> response = HttpResponse.<Problem>status(exception.status())
                .body(exception.problem())
                .contentType(Problem.MEDIA_TYPE);
        if (exception.retryAfter() != null) {
            response.header("Retry-After", String.valueOf(Math.max(1, exception.retryAfter().toSeconds())));
        }
        return response;
    }
}
