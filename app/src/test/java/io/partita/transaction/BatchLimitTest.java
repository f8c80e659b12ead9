package io.partita.transaction;

import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.StringJoiner;

import static io.partita.support.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A node whose in-flight limit is smaller than a batch tells the client to split it, instead of a 503 forever. */
@MicronautTest
@Property(name = "partita.max-in-flight", value = "5")
class BatchLimitTest {

    @Inject
    Api api;

    @Test
    void shouldRefuseABatchLargerThanTheNodesInFlightLimitAs413AndRunABatchThatFits() {
        String account = api.openAccount("limit-", Map.of());

        Api.Reply tooLarge = api.post("/transactions/batch", batch(account, "big", 6));
        assertProblem(tooLarge, 413);
        assertEquals(0, api.get("/accounts/" + account).number("version"));

        Api.Reply fits = api.post("/transactions/batch", batch(account, "fit", 5));
        assertEquals(200, fits.status(), fits.toString());
        assertEquals(5, api.get("/accounts/" + account).number("balance"));
    }

    private static String batch(String account, String prefix, int size) {
        StringJoiner body = new StringJoiner(",", "[", "]");
        for (int i = 0; i < size; i++) {
            body.add("{\"txId\":\"" + prefix + "-" + i + "\",\"accountId\":\"" + account
                    + "\",\"type\":\"CREDIT\",\"amount\":1}");
        }
        return body.toString();
    }
}
