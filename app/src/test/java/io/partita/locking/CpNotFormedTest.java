package io.partita.locking;

import io.micronaut.context.annotation.Property;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The first node of a cluster configured for Raft on three CP members, before the others have joined: locked mode
 * answers 503 at once (nothing changes), partitioned mode works, and {@code /cluster} says the CP Subsystem is not
 * available yet.
 */
@MicronautTest
@Property(name = "partita.cp.members", value = "3")
class CpNotFormedTest {

    @Inject
    @Client("/")
    HttpClient http;

    @Test
    void shouldAnswerLockedRequestsWith503UntilTheCpSubsystemHasFormed() {
        http.toBlocking().exchange(HttpRequest.POST("/accounts", Map.of("id", "f-1", "balance", 100)));
        http.toBlocking().exchange(HttpRequest.POST("/accounts", Map.of("id", "f-2")));

        HttpClientResponseException locked = assertThrows(HttpClientResponseException.class, () -> http.toBlocking()
                .exchange(HttpRequest.POST("/accounts/f-1/transactions?mode=locked",
                        Map.of("txId", "t-1", "type", "DEBIT", "amount", 10))));
        HttpClientResponseException transfer = assertThrows(HttpClientResponseException.class, () -> http.toBlocking()
                .exchange(HttpRequest.POST("/transfers?mode=locked",
                        Map.of("txId", "x-1", "from", "f-1", "to", "f-2", "amount", 10))));
        Map<String, Object> partitioned = http.toBlocking().retrieve(HttpRequest.POST("/accounts/f-1/transactions",
                Map.of("txId", "t-2", "type", "DEBIT", "amount", 10)), Argument.mapOf(String.class, Object.class));

        assertEquals(503, locked.code());
        assertEquals("1", locked.getResponse().getHeaders().get("Retry-After"));
        assertEquals(503, transfer.code());
        assertEquals(90, ((Number) partitioned.get("balance")).longValue());
        Map<String, Object> cluster = http.toBlocking().retrieve(HttpRequest.GET("/cluster"),
                Argument.mapOf(String.class, Object.class));
        @SuppressWarnings("unchecked")
        Map<String, Object> cp = (Map<String, Object>) cluster.get("cp");
        assertEquals("RAFT", cp.get("mode"));
        assertFalse((Boolean) cp.get("available"));
    }
}
