package io.partita.web;

import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

import java.util.Locale;

/**
 * Gives every error answer without a body a problem+json one. Some of Micronaut's own filters answer with a bare
 * status (its CORS filter refuses a cross-origin request with an empty 403); a client of this API reads
 * {@code type}, {@code title}, {@code status} and {@code detail} from every error. Runs outermost, so it sees what
 * the other filters answered.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProblemBodies {

    @ResponseFilter
    @SuppressWarnings("unchecked")
    void problemForBareErrors(HttpRequest<?> request, MutableHttpResponse<?> response) {
        HttpStatus status = response.getStatus();
        if (status.getCode() < 400 || response.getBody().isPresent() || request.getMethod() == HttpMethod.HEAD) {
            return;
        }
        String detail = status == HttpStatus.FORBIDDEN
                ? "The request is not allowed (a cross-origin request from this Origin, or without the permission "
                        + "it needs)."
                : status.getReason() + ".";
        ((MutableHttpResponse<Object>) response)
                .body(new Problem(Problem.TYPE_BASE + status.getReason().toLowerCase(Locale.ROOT).replace(' ', '-'),
                        status.getReason(), status.getCode(), detail, null))
                .contentType(Problem.MEDIA_TYPE);
    }
}
