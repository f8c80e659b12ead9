package io.partita.web;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every route that names an account, job, schedule or lease group answers 404 not-found as problem+json for a name
 * that does not exist, names it in the detail, and creates nothing under it.
 */
@MicronautTest
class UnknownNamesTest {

    @Inject
    Api api;

    @Test
    void shouldAnswer404ProblemForEveryRouteThatNamesSomethingThatDoesNotExist() {
        String name = Api.uniqueId("nobody");
        List<Api.Reply> replies = List.of(
                api.get("/accounts/" + name),
                api.get("/accounts/" + name + "/transactions"),
                api.post("/accounts/" + name + "/transactions", Map.of("txId", "u-1", "type", "CREDIT", "amount", 1)),
                api.get("/jobs/" + name),
                api.get("/schedules/" + name),
                api.delete("/schedules/" + name),
                api.get("/groups/" + name),
                api.delete("/groups/" + name),
                api.post("/groups/" + name + "/workers", Map.of()),
                api.post("/groups/" + name + "/fences/check", Map.of("shard", 0, "token", 1)));
        for (Api.Reply reply : replies) {
            assertEquals(404, reply.status(), reply.toString());
            assertTrue(reply.contentType().startsWith(Problem.MEDIA_TYPE), reply.toString());
            assertTrue(reply.text("type").endsWith("/not-found"), reply.toString());
            assertTrue(reply.text("detail").contains(name), reply.toString());
        }
        assertEquals(404, api.get("/accounts/" + name).status(), "the credit opened nothing");
        assertEquals(404, api.get("/groups/" + name).status(), "the join created no group");
    }
}
