package io.partita.web;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.partita.support.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAPI document the build writes, against a running node: every route its router serves is in it and nothing
 * else is; every error status it documents carries a problem+json body (a refused transaction's 422 is its own
 * answer); and the node serves it at {@code GET /openapi}, with a Swagger UI page behind {@code GET /openapi/ui}. That each documented
 * status is really produced is {@code OpenApiContractIT}'s check, after the unit tests have run.
 */
@MicronautTest
class OpenApiDocumentTest {

    @Inject
    EmbeddedServer server;

    @Inject
    Router router;

    @Test
    void shouldDocumentEveryRouteTheNodeServesAndNoOther() {
        assertEquals(routesServed(), OpenApiDocument.load().operations().keySet());
    }

    @Test
    void shouldSayWhatBodyEveryDocumentedErrorCarries() {
        OpenApiDocument document = OpenApiDocument.load();
        Set<String> bare = new TreeSet<>();
        document.operations().forEach((operation, statuses) -> statuses.forEach((status, response) -> {
            Set<String> types = document.bodyTypes(response);
            if (status >= 400 && !types.contains(Problem.MEDIA_TYPE)
                    && !(status == 422 && types.equals(Set.of("application/json")))) {
                bare.add(operation + " " + status + " " + types);
            }
        }));
        // A refused transaction's 422 is the transaction's own answer (status REJECTED), replayed as such.
        assertEquals(Set.of(), bare, "error answers documented without a problem+json body");
        Set<String> withoutSuccess = new TreeSet<>();
        document.operations().forEach((operation, statuses) -> {
            if (statuses.keySet().stream().noneMatch(status -> status < 400)) {
                withoutSuccess.add(operation);
            }
        });
        assertEquals(Set.of(), withoutSuccess, "operations documented without their success");
    }

    @Test
    void shouldServeTheDocumentAndAPageThatReadsIt() throws IOException {
        RawHttp http = new RawHttp(server.getURL());

        RawHttp.Answer document = http.send("GET", "/openapi", Map.of(), null);
        assertEquals(200, document.status(), document.toString());
        assertTrue(document.header("Content-Type").startsWith("application/yaml"), document.toString());
        try (InputStream in = getClass().getResourceAsStream(OpenApiController.DOCUMENT)) {
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), document.body());
        }
        Map<?, ?> parsed = new Yaml().load(document.body());
        assertTrue(((Map<?, ?>) parsed.get("paths")).containsKey("/accounts/{id}/transactions"), "a parsed document");

        RawHttp.Answer ui = http.send("GET", "/openapi/ui", Map.of(), null);
        assertEquals(303, ui.status(), ui.toString());
        String page = ui.header("Location");
        RawHttp.Answer html = http.send("GET", page, Map.of(), null);
        assertEquals(200, html.status(), html.toString());
        assertTrue(html.body().contains("'/openapi'"), "the page reads GET /openapi: " + html.body());
        assertEquals(200, http.send("GET", "/swagger-ui/res/swagger-ui-bundle.js", Map.of(), null).status(),
                "the page's script is served by the node, not fetched from elsewhere");
    }

    /**
     * "METHOD /path/{param}" for every route the node's router serves: Partita's controllers. Not counted: the HEAD
     * twin of each GET, and Micronaut's management endpoints ({@code /health}, {@code /prometheus}), which
     * app/README.md describes and which are not Partita's API.
     */
    private Set<String> routesServed() {
        return router.uriRoutes()
                .filter(route -> !"HEAD".equals(route.getHttpMethodName()))
                .map(route -> route.getHttpMethodName() + " "
                        + route.getUriMatchTemplate().toString().replaceAll("\\{\\?[^}]*}", ""))
                .filter(route -> !route.contains(" /health") && !route.endsWith(" /prometheus"))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
