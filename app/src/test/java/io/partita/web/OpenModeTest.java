package io.partita.web;

import io.micronaut.context.annotation.Property;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node without credentials runs open: every route answers without any, and a script written for a secured node,
 * which sends credentials this node does not know, still works. Configured as {@code java -jar} starts an open node,
 * without Micronaut Security's filter ({@link ApiUsers#startupProperties}). Every route means each route of the
 * router (but HEAD twins; Micronaut Security's token introspection is turned off): the test fails when a route is
 * added that it does not call.
 */
@MicronautTest
@Property(name = ApiUsers.SECURITY_FILTER, value = "false")
class OpenModeTest {

    @Inject
    Api api;

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    Router router;

    /** Every request sent, as its method and path. */
    private final Set<String> called = ConcurrentHashMap.newKeySet();

    @Test
    void shouldStartAnOpenNodeWithoutTheSecurityFilterAndASecuredOneWithIt() {
        assertEquals(Map.of(ApiUsers.SECURITY_FILTER, false), ApiUsers.startupProperties(new String[0]));
        assertEquals(Map.of(), ApiUsers.startupProperties(new String[]{"--partita.security.client.password=s3cret"}));
        assertEquals(Map.of(), ApiUsers.startupProperties(new String[]{"--partita.security.admin.password=s3cret"}));
        assertEquals(Map.of(ApiUsers.SECURITY_FILTER, false),
                ApiUsers.startupProperties(new String[]{"--partita.security.admin.password= "}));
    }

    @Test
    void shouldServeEveryRouteWithoutCredentialsAndIgnoreThoseAClientSends() {
        callEveryRoute(Api.uniqueId("open-"), false);
        callEveryRoute(Api.uniqueId("creds-"), true);

        // Not counted: the HEAD twin Micronaut adds to every GET route (it answers as the GET, which is called).
        List<String> notCalled = router.uriRoutes()
                .filter(route -> !"HEAD".equals(route.getHttpMethodName()))
                .filter(route -> called.stream().noneMatch(call -> matches(route, call)))
                .map(route -> route.getHttpMethodName() + " " + route.getUriMatchTemplate())
                .toList();
        assertEquals(List.of(), notCalled, "routes this test does not call");
    }

    /**
     * Calls every route once, each with the success it answers a caller it lets in: without credentials, or with
     * credentials of a user this node does not know ({@code credentials}).
     */
    private void callEveryRoute(String run, boolean credentials) {
        String from = run + "-a";
        String to = run + "-b";
        String group = run + "-g";
        String schedule = run + "-s";
        String job = run + "-j";

        json(HttpRequest.POST("/accounts", "{\"id\":\"" + from + "\",\"balance\":10}"), credentials, 201);
        json(HttpRequest.POST("/accounts", "{\"id\":\"" + to + "\",\"balance\":0}"), credentials, 201);
        json(HttpRequest.POST("/accounts/" + from + "/transactions",
                "{\"txId\":\"t-1\",\"type\":\"CREDIT\",\"amount\":5}"), credentials, 200);
        json(HttpRequest.POST("/transactions/batch",
                "[{\"txId\":\"t-2\",\"accountId\":\"" + from + "\",\"type\":\"DEBIT\",\"amount\":2}]"),
                credentials, 200);
        json(HttpRequest.POST("/transfers",
                "{\"txId\":\"x-1\",\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"amount\":3}"), credentials, 200);
        assertEquals(10, json(HttpRequest.GET("/accounts/" + from), credentials, 200).number("balance"),
                "10 + 5 - 2 - 3");
        assertEquals(3, json(HttpRequest.GET("/accounts/" + from + "/transactions"), credentials, 200).list().size());

        json(HttpRequest.POST("/jobs", "{\"id\":\"" + job + "\",\"type\":\"AUDIT\",\"concurrent\":true}"), credentials,
                202);
        json(HttpRequest.GET("/jobs/" + job), credentials, 200);
        json(HttpRequest.GET("/jobs"), credentials, 200);

        json(HttpRequest.PUT("/schedules/" + schedule, "{\"cron\":\"0 0 1 1 *\",\"job\":{\"type\":\"AUDIT\"}}"),
                credentials, 200);
        json(HttpRequest.GET("/schedules"), credentials, 200);
        json(HttpRequest.GET("/schedules/" + schedule), credentials, 200);
        json(HttpRequest.DELETE("/schedules/" + schedule), credentials, 204);

        json(HttpRequest.POST("/sql", "{\"sql\":\"SELECT COUNT(*) FROM accounts\",\"params\":[]}"), credentials, 200);

        json(HttpRequest.PUT("/groups/" + group, "{\"shards\":2}"), credentials, 201);
        json(HttpRequest.GET("/groups"), credentials, 200);
        json(HttpRequest.GET("/groups/" + group), credentials, 200);
        String worker = json(HttpRequest.POST("/groups/" + group + "/workers", "{}"), credentials, 201)
                .text("workerId");
        json(HttpRequest.POST("/groups/" + group + "/workers/" + worker + "/renew", ""), credentials, 200);
        json(HttpRequest.POST("/groups/" + group + "/fences/check", "{\"shard\":0,\"token\":1}"), credentials, 200);
        json(HttpRequest.DELETE("/groups/" + group + "/workers/" + worker), credentials, 204);
        json(HttpRequest.DELETE("/groups/" + group), credentials, 204);

        json(HttpRequest.GET("/cluster"), credentials, 200);
        json(HttpRequest.GET("/cluster/merges"), credentials, 200);
        json(HttpRequest.GET("/cluster/partitions"), credentials, 200);
        json(HttpRequest.GET("/cluster/nodes"), credentials, 200);
        json(HttpRequest.GET("/cluster/migrations"), credentials, 200);
        json(HttpRequest.DELETE("/cluster/lost"), credentials, 200);
        json(HttpRequest.DELETE("/cluster/missing"), credentials, 200);

        json(HttpRequest.GET("/health"), credentials, 200);
        json(HttpRequest.GET("/health/liveness"), credentials, 200);
        json(HttpRequest.GET("/health/readiness"), credentials, 200);
        assertTrue(text(HttpRequest.GET("/prometheus"), credentials).contains("partita_"), "the metrics");
        assertTrue(text(HttpRequest.GET("/"), credentials).contains("<html"), "the dashboard");
        assertTrue(text(HttpRequest.GET("/openapi"), credentials).startsWith("openapi: "), "the OpenAPI document");
        assertTrue(text(HttpRequest.GET("/openapi/ui"), credentials).contains("swagger-ui"), "its page, redirected to");
    }

    /** Sends a JSON request and checks that it answered {@code status}. */
    private Api.Reply json(MutableHttpRequest<?> request, boolean credentials, int status) {
        Api.Reply reply = api.send(prepare(request, credentials).contentType(MediaType.APPLICATION_JSON_TYPE));
        assertEquals(status, reply.status(), request.getMethodName() + " " + request.getPath() + ": " + reply);
        return reply;
    }

    /** Sends a request whose answer is not JSON and checks that it answered 200; its body. */
    private String text(MutableHttpRequest<?> request, boolean credentials) {
        try {
            HttpResponse<String> response = http.toBlocking().exchange(prepare(request, credentials), String.class);
            assertEquals(200, response.code(), request.getPath());
            return response.body();
        } catch (HttpClientResponseException e) {
            throw new AssertionError(request.getMethodName() + " " + request.getPath() + ": " + e.getStatus(), e);
        }
    }

    private MutableHttpRequest<?> prepare(MutableHttpRequest<?> request, boolean credentials) {
        called.add(request.getMethodName() + " " + request.getPath());
        return credentials ? request.basicAuth("someone", "whatever") : request;
    }

    private static boolean matches(UriRouteInfo<?, ?> route, String call) {
        int space = call.indexOf(' ');
        return route.getHttpMethodName().equals(call.substring(0, space))
                && route.match(call.substring(space + 1)).isPresent();
    }
}
