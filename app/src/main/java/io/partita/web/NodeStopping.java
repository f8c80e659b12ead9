package io.partita.web;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.partita.refusal.GridFailures;
import jakarta.inject.Singleton;

/**
 * A request that reaches a node whose grid member has stopped (its graceful stop has begun, or the member failed)
 * fails where it first touches the member, often in the controller before any future exists, where no
 * {@link GridFailures#translate} is called. It is answered here as that would answer it, 503 with Retry-After, not an unhandled
 * 500: a client retries the same id on another node (the Java client does so by itself).
 */
@Produces(Problem.MEDIA_TYPE)
@Singleton
@Requires(classes = {HazelcastInstanceNotActiveException.class, ExceptionHandler.class})
final class NodeStopping implements ExceptionHandler<HazelcastInstanceNotActiveException, HttpResponse<Problem>> {

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler declares a raw HttpRequest; HttpRequest<?> would not override it
    public HttpResponse<Problem> handle(HttpRequest request, HazelcastInstanceNotActiveException stopped) {
        return Refusals.render(GridFailures.memberStopped());
    }
}
