package io.partita.web;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The routes that read a JSON body, as the OpenAPI document lists them: each documents the body's refusals
 * ({@link BodyRefusals}: 400, 413, 415) and no other route does, and each answers 415 problem+json to a body sent as
 * another type or without a Content-Type, creating nothing under the name in its path.
 */
@MicronautTest
class BodyRoutesTest {

    private static final Set<Integer> BODY_REFUSALS = Set.of(400, 413, 415);

    @Inject
    EmbeddedServer server;

    @Test
    void shouldDocumentTheBodyRefusalsOnExactlyTheRoutesThatReadABody() {
        OpenApiDocument document = OpenApiDocument.load();
        Set<String> wrong = new TreeSet<>();
        document.operations().forEach((operation, statuses) -> {
            boolean body = document.readsBody(operation);
            if (body && !statuses.keySet().containsAll(BODY_REFUSALS)) {
                wrong.add(operation + " reads a body but documents " + statuses.keySet());
            }
            if (!body && (statuses.containsKey(413) || statuses.containsKey(415))) {
                wrong.add(operation + " reads no body but documents " + statuses.keySet());
            }
        });
        assertEquals(Set.of(), wrong);
    }

    @Test
    void shouldAnswer415ToABodyThatIsNotDeclaredJsonOnEveryRouteThatReadsOne() {
        OpenApiDocument document = OpenApiDocument.load();
        RawHttp http = new RawHttp(server.getURL());
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        Set<String> routes = new TreeSet<>();
        for (String operation : document.operations().keySet()) {
            if (!document.readsBody(operation)) {
                continue;
            }
            routes.add(operation);
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1).replaceAll("\\{[^/]+}", "body-415");
            for (Map<String, String> headers : List.of(Map.of("Content-Type", "text/plain"),
                    Map.<String, String>of())) {
                RawHttp.Answer answer = http.send(method, path, headers, body);
                assertEquals(415, answer.status(), operation + " " + headers + ": " + answer);
                assertTrue(answer.header("Content-Type").startsWith(Problem.MEDIA_TYPE), answer.toString());
                assertTrue(answer.body().contains("/unsupported-media-type"), answer.toString());
            }
        }
        assertFalse(routes.isEmpty());
        assertEquals(404, http.send("GET", "/accounts/body-415", Map.of(), null).status(), "nothing was opened");
        assertEquals(404, http.send("GET", "/groups/body-415", Map.of(), null).status(), "no group was created");
    }
}
