package io.partita.web;

import io.micronaut.context.annotation.Property;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import io.partita.support.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node with both users configured: who may call what, what the others are told (401 with a Basic challenge, 403),
 * always as problem+json, and that a refused call changes nothing.
 */
@MicronautTest
@Property(name = "partita.security.admin.password", value = "admin-secret")
@Property(name = "partita.security.client.password", value = "client-secret")
class ApiSecurityTest {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Inject
    EmbeddedServer server;

    private Api.Reply as(String user, String password, MutableHttpRequest<?> request) {
        if (user != null) {
            request.basicAuth(user, password);
        }
        return new Api(client, json).send(request);
    }

    private static MutableHttpRequest<String> post(String path, String body) {
        return HttpRequest.POST(path, body).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    private static void assertRefused(Api.Reply reply, int status) {
        assertEquals(status, reply.status(), reply.toString());
        assertEquals("application/problem+json", reply.contentType(), reply.toString());
        assertEquals(status, reply.number("status"));
        assertFalse(reply.body().toString().contains("Exception"), reply.toString());
        assertFalse(reply.body().toString().contains("io.micronaut"), reply.toString());
    }

    @Test
    void shouldLetEachRoleDoItsOwnWorkAndRefuseTheRestWithoutChangingAnything() {
        String id = "sec-" + UUID.randomUUID().toString().substring(0, 8);
        String open = "{\"id\":\"" + id + "\",\"balance\":100}";

        assertRefused(as(null, null, post("/accounts", open)), 401);
        Api.Reply unauthenticated = as(null, null, post("/accounts", open));
        assertTrue(unauthenticated.headers().get("WWW-Authenticate").startsWith("Basic"), unauthenticated.toString());
        assertRefused(as("client", "wrong", post("/accounts", open)), 401);
        assertRefused(as("client", "client-secret", post("/accounts", open)), 403);
        assertEquals(404, as("admin", "admin-secret", HttpRequest.GET("/accounts/" + id)).status(),
                "refused opens created nothing");
        assertEquals(201, as("admin", "admin-secret", post("/accounts", open)).status());

        String debit = "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":30}";
        assertRefused(as(null, null, post("/accounts/" + id + "/transactions", debit)), 401);
        assertRefused(as(null, null, HttpRequest.GET("/accounts/" + id)), 401);
        assertEquals(100, as("client", "client-secret", HttpRequest.GET("/accounts/" + id)).number("balance"),
                "the refused debit changed nothing");
        assertEquals(200, as("client", "client-secret", post("/accounts/" + id + "/transactions", debit)).status());
        assertEquals(70, as("admin", "admin-secret", HttpRequest.GET("/accounts/" + id)).number("balance"),
                "an admin may do what a client may");

        for (MutableHttpRequest<?> adminOnly : new MutableHttpRequest<?>[]{
                post("/jobs", "{\"type\":\"AUDIT\"}"), HttpRequest.GET("/jobs"), HttpRequest.GET("/schedules"),
                post("/sql", "{\"statement\":\"SELECT COUNT(*) FROM accounts\"}"),
                HttpRequest.PUT("/groups/g-sec", "{\"shards\":2}").contentType(MediaType.APPLICATION_JSON_TYPE),
                post("//jobs", "{\"type\":\"AUDIT\"}"), post("/accounts/../jobs", "{\"type\":\"AUDIT\"}"),
                post("/%6Aobs", "{\"type\":\"AUDIT\"}"), HttpRequest.DELETE("/cluster/lost")}) {
            assertRefused(as("client", "client-secret", adminOnly), 403);
        }
        assertEquals(200, as("admin", "admin-secret", HttpRequest.GET("/jobs")).status());
        // Accepting a loss when nothing is lost accepts nothing, and says who asked.
        Api.Reply accepted = as("admin", "admin-secret", HttpRequest.DELETE("/cluster/lost"));
        assertEquals(200, accepted.status(), accepted.toString());
        assertEquals("admin", accepted.text("by"), accepted.toString());
        assertEquals(List.of(), accepted.map().get("partitions"), accepted.toString());
        assertEquals(200, as("client", "client-secret", HttpRequest.GET("/cluster")).status());
    }

    /**
     * A target that is not a valid URI is the caller's mistake, whoever calls: 400 to the admin, to a client and to a
     * caller without credentials (it used to be 401 to all three, the admin included), and it changes nothing.
     */
    @Test
    void shouldAnswerATargetThatIsNotAUriWith400WhoeverAsks() {
        String id = "sec-" + UUID.randomUUID().toString().substring(0, 8);
        RawHttp http = new RawHttp(server.getURL());
        String admin = "Basic " + Base64.getEncoder().encodeToString("admin:admin-secret".getBytes(UTF_8));
        String client = "Basic " + Base64.getEncoder().encodeToString("client:client-secret".getBytes(UTF_8));
        for (Map<String, String> who : List.of(Map.of("Authorization", admin), Map.of("Authorization", client),
                Map.<String, String>of())) {
            for (String target : List.of("/accounts/%zz", "/accounts/" + id + "%zz/transactions", "/jobs/%g1",
                    "/%")) {
                RawHttp.Answer answer = http.send("GET", target, who, null);
                assertEquals(400, answer.status(), target + " " + who.keySet() + ": " + answer);
                assertEquals("application/problem+json", answer.header("content-type"), answer.toString());
                assertTrue(answer.body().contains("not a valid URI"), answer.toString());
                assertFalse(answer.body().contains("Exception"), answer.toString());
            }
            RawHttp.Answer opened = http.send("POST", "/accounts/%zz", Map.of("Authorization", admin,
                    "Content-Type", "application/json"), ("{\"id\":\"" + id + "\"}").getBytes(UTF_8));
            assertEquals(400, opened.status(), opened.toString());
        }
        assertEquals(404, as("admin", "admin-secret", HttpRequest.GET("/accounts/" + id)).status(),
                "nothing was opened");
        // A valid target is still judged by its credentials.
        assertEquals(401, http.send("GET", "/accounts/" + id, Map.of(), null).status());
        assertEquals(200, http.send("GET", "/", Map.of("Authorization", client), null).status());
    }

    @Test
    void shouldLeaveProbesAndMetricsOpen() {
        assertEquals(200, client.toBlocking().exchange(HttpRequest.GET("/health/liveness"), String.class).code());
        assertEquals(200, client.toBlocking().exchange(HttpRequest.GET("/prometheus"), String.class).code());
    }
}
