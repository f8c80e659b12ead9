package io.partita.web;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * A request that reaches a node whose grid member has stopped (its graceful stop has begun, or the member failed)
 * fails where it first touches the member, often in the controller before any future exists, so
 * {@code GridFailures.translate} never sees it. Answered 503 with Retry-After, not as an unhandled 500: a client retries
 * the same id on another node (the Java client does so by itself), and a write that did land is answered as it was.
 */
@Produces(Problem.MEDIA_TYPE)
@Singleton
@Requires(classes = {HazelcastInstanceNotActiveException.class, ExceptionHandler.class})
final class NodeStopping implements ExceptionHandler<HazelcastInstanceNotActiveException, HttpResponse<Problem>> {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    @Override
    @SuppressWarnings("rawtypes") // ExceptionHandler declares a raw HttpRequest; HttpRequest<?> would not override it
    public HttpResponse<Problem> handle(HttpRequest request, HazelcastInstanceNotActiveException stopped) {
        return Refusals.render(Refusal.unavailable("This node's member has stopped (the node is shutting down). Retry "
                + "with the same id on another node: a write that did land is answered as it was.", RETRY_AFTER));
    }
}
