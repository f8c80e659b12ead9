package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Property;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountFeature;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A node started with {@code partita.processing.mode=locked} (PARTITA_PROCESSING_MODE) locks by default. */
@MicronautTest
@Property(name = "partita.processing.mode", value = "locked")
class LockedDefaultModeTest {

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    HazelcastInstance hazelcast;

    @Test
    void shouldTakeTheLockedPathWhenTheNodeDefaultIsLocked() {
        http.toBlocking().exchange(HttpRequest.POST("/accounts", Map.of("id", "d-1", "balance", 100)));
        http.toBlocking().exchange(HttpRequest.POST("/accounts", Map.of("id", "d-2")));
        Map<String, Object> answer = http.toBlocking().retrieve(HttpRequest.POST("/accounts/d-1/transactions",
                Map.of("txId", "t-1", "type", "DEBIT", "amount", 40)), Argument.mapOf(String.class, Object.class));
        http.toBlocking().exchange(HttpRequest.POST("/transfers",
                Map.of("txId", "x-1", "from", "d-1", "to", "d-2", "amount", 10)));

        assertEquals(60, ((Number) answer.get("balance")).longValue());
        assertTrue(AccountFeature.accounts(hazelcast).get("d-1").fence() > 0, "written under a lock");
        assertTrue(AccountFeature.accounts(hazelcast).get("d-2").fence() > 0, "the transfer wrote under a lock");
        assertEquals(50, AccountFeature.accounts(hazelcast).get("d-1").balance());
        assertEquals(10, AccountFeature.accounts(hazelcast).get("d-2").balance());
    }
}
