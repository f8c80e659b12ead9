package io.partita.web;

import io.micronaut.context.annotation.Property;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node without credentials runs open: every route answers without any, and a script written for a secured node,
 * which sends credentials this node does not know, still works. Configured as {@code java -jar} starts an open node,
 * without Micronaut Security's filter ({@link ApiUsers#startupProperties}).
 */
@MicronautTest
@Property(name = ApiUsers.SECURITY_FILTER, value = "false")
class OpenModeTest {

    @Inject
    Api api;

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
        String id = api.openAccount("open-", Map.of("balance", 10));
        assertEquals(200, api.get("/jobs").status());
        Api.Reply withUnknownCredentials = api.send(HttpRequest.POST("/accounts/" + id + "/transactions",
                "{\"txId\":\"t-1\",\"type\":\"CREDIT\",\"amount\":5}").contentType(MediaType.APPLICATION_JSON_TYPE)
                .basicAuth("someone", "whatever"));
        assertEquals(200, withUnknownCredentials.status(), withUnknownCredentials.toString());
        assertEquals(15, api.get("/accounts/" + id).number("balance"));
    }
}
