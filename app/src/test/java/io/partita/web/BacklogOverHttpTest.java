package io.partita.web;

import io.micronaut.context.annotation.Property;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Back-pressure as a client hears it: while a {@link Backlog} refuses, every write route answers 503 unavailable with
 * {@code Retry-After} and applies nothing; once it stops refusing, the same calls are applied.
 */
@MicronautTest
@Property(name = "partita.test.held-backlog", value = "true")
class BacklogOverHttpTest {

    @Inject
    Api api;

    @AfterEach
    void release() {
        HeldBacklog.refusal = null;
    }

    @Test
    void shouldRefuseEveryWriteWith503AndRetryAfterWhileABacklogRefusesAndApplyNothing() {
        String from = api.openAccount("held", Map.of("balance", 100));
        String to = api.openAccount("held", Map.of());
        HeldBacklog.refusal = "The test holds this node's backlog.";

        List<Api.Reply> refused = List.of(
                api.post("/accounts/" + from + "/transactions", Map.of("txId", "h-1", "type", "DEBIT", "amount", 1)),
                api.post("/transactions/batch", List.of(Map.of("txId", "h-2", "accountId", from, "type", "DEBIT",
                        "amount", 1))),
                api.post("/transfers", Map.of("txId", "h-3", "from", from, "to", to, "amount", 1)));
        for (Api.Reply reply : refused) {
            assertEquals(503, reply.status(), reply.toString());
            assertTrue(reply.text("type").endsWith("/unavailable"), reply.toString());
            assertEquals("1", reply.headers().get("Retry-After"), reply.toString());
        }
        assertEquals(100, api.get("/accounts/" + from).number("balance"), "nothing was applied");

        HeldBacklog.refusal = null;
        Api.Reply applied = api.post("/accounts/" + from + "/transactions",
                Map.of("txId", "h-1", "type", "DEBIT", "amount", 1));
        assertEquals(200, applied.status(), applied.toString());
        assertEquals(99, applied.number("balance"));
    }

    /** A backlog the test holds and releases. */
    @Singleton
    @Requires(property = "partita.test.held-backlog", value = "true")
    static class HeldBacklog implements Backlog {

        static volatile String refusal;

        @Override
        @Nullable
        public String refusal() {
            return refusal;
        }
    }
}
