package io.partita.web;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAPI document the build writes, against the code and against a running node: every route a controller
 * declares is in it and nothing else is; every error status it documents carries a problem+json body (a refused
 * transaction's 422 is its own answer); and a node
 * serves it at {@code GET /openapi}, with a Swagger UI page behind {@code GET /openapi/ui}. That each documented
 * status is really produced is {@code OpenApiContractIT}'s check, after the unit tests have run.
 */
@MicronautTest
class OpenApiDocumentTest {

    @Inject
    EmbeddedServer server;

    @Test
    void shouldDocumentEveryRouteTheControllersDeclareAndNoOther() {
        assertEquals(routesInCode(), OpenApiDocument.load().operations().keySet());
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

    /** "METHOD /path/{param}" for every route method of every controller in the node's code. */
    static Set<String> routesInCode() {
        Set<String> routes = new TreeSet<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.partita")) {
            if (!type.isAnnotatedWith(Controller.class)) {
                continue;
            }
            Class<?> controller = type.reflect();
            String base = controller.getAnnotation(Controller.class).value();
            for (Method method : controller.getDeclaredMethods()) {
                route(method.getAnnotation(Get.class) == null ? null : "GET", method.getAnnotation(Get.class) == null
                        ? null : method.getAnnotation(Get.class).value(), base, routes);
                route(method.getAnnotation(Post.class) == null ? null : "POST", method.getAnnotation(Post.class) == null
                        ? null : method.getAnnotation(Post.class).value(), base, routes);
                route(method.getAnnotation(Put.class) == null ? null : "PUT", method.getAnnotation(Put.class) == null
                        ? null : method.getAnnotation(Put.class).value(), base, routes);
                route(method.getAnnotation(Delete.class) == null ? null : "DELETE",
                        method.getAnnotation(Delete.class) == null ? null : method.getAnnotation(Delete.class).value(),
                        base, routes);
            }
        }
        return routes;
    }

    private static void route(String verb, String path, String base, Set<String> routes) {
        if (verb == null) {
            return;
        }
        String joined = (base + "/" + path).replaceAll("/+", "/");
        routes.add(verb + " " + (joined.length() > 1 && joined.endsWith("/")
                ? joined.substring(0, joined.length() - 1) : joined));
    }
}
