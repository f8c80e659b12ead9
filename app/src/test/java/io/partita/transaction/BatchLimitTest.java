package io.partita.transaction;

import io.micronaut.context.annotation.Property;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountApiTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.StringJoiner;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A node whose in-flight limit is smaller than a batch tells the client to split it, instead of a 503 forever. */
@MicronautTest
@Property(name = "partita.max-in-flight", value = "5")
class BatchLimitTest {

    @Inject
    @Client("/")
    HttpClient client;

    @Inject
    JsonMapper json;

    @Test
    void shouldRefuseABatchLargerThanTheNodesInFlightLimitAs413AndRunABatchThatFits() {
        Api api = new Api(client, json);
        String account = "limit-" + UUID.randomUUID().toString().substring(0, 8);
        assertEquals(201, api.post("/accounts", "{\"id\":\"" + account + "\"}").status());

        Api.Reply tooLarge = api.post("/transactions/batch", batch(account, "big", 6));
        AccountApiTest.assertProblem(tooLarge, 413);
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
