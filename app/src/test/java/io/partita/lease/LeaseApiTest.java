package io.partita.lease;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.partita.support.Problems.assertProblem;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lease routes on a one-node cluster, as a worker and its downstream store use them: create a group, join, renew,
 * check fences, leave; and every class of bad input, answered with problem+json and changing nothing.
 */
@MicronautTest
class LeaseApiTest {

    @Inject
    Api api;

    String group;

    @BeforeEach
    void setUp() {
        group = Api.uniqueId("g-");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> shards(Api.Reply lease) {
        assertTrue(lease.status() == 200 || lease.status() == 201, lease.toString());
        return (List<Map<String, Object>>) lease.map().get("shards");
    }

    @Test
    void shouldShareAGroupsShardsBetweenWorkersWithFencesThatTellTheirStoresWhoIsCurrent() {
        assertEquals(201, api.put("/groups/" + group, "{\"shards\":6,\"leaseSeconds\":30}").status());
        assertEquals(200, api.put("/groups/" + group, "{\"shards\":6,\"leaseSeconds\":30}").status(), "same again");
        assertProblem(api.put("/groups/" + group, "{\"shards\":7}"), 409, null);

        Api.Reply first = api.post("/groups/" + group + "/workers", "{\"requestId\":\"r-1\"}");
        assertEquals(201, first.status(), first.toString());
        String w1 = first.text("workerId");
        assertEquals(30_000, first.number("leaseMillis"));
        assertEquals(6, shards(first).size(), "the only worker holds every shard");
        assertEquals(w1, api.post("/groups/" + group + "/workers", "{\"requestId\":\"r-1\"}").text("workerId"),
                "a retried join finds the worker it created");

        String w2 = api.post("/groups/" + group + "/workers", "{}").text("workerId");
        Api.Reply w2Before = api.post("/groups/" + group + "/workers/" + w2 + "/renew", "");
        assertEquals(0, shards(w2Before).size(), "nothing until the first worker lets its share go");
        Api.Reply w1After = api.post("/groups/" + group + "/workers/" + w1 + "/renew", "");
        assertEquals(3, shards(w1After).size(), "the first worker's renewal hands three over");
        Api.Reply w2After = api.post("/groups/" + group + "/workers/" + w2 + "/renew", "");
        assertEquals(3, shards(w2After).size());
        Set<Object> all = new HashSet<>();
        shards(w1After).forEach(s -> all.add(s.get("shard")));
        shards(w2After).forEach(s -> all.add(s.get("shard")));
        assertEquals(6, all.size(), "every shard held once");

        Map<String, Object> moved = shards(w2After).get(0);
        Map<String, Object> oldGrant = shards(first).stream().filter(s -> s.get("shard").equals(moved.get("shard")))
                .findFirst().orElseThrow();
        assertTrue(((Number) moved.get("token")).longValue() > ((Number) oldGrant.get("token")).longValue(),
                "a new grant carries a higher token");
        Api.Reply stale = api.post("/groups/" + group + "/fences/check",
                "{\"shard\":" + moved.get("shard") + ",\"token\":" + oldGrant.get("token") + "}");
        assertEquals(200, stale.status(), stale.toString());
        assertEquals(false, stale.map().get("current"));
        assertEquals(((Number) moved.get("token")).longValue(), stale.number("currentToken"));
        Api.Reply fresh = api.post("/groups/" + group + "/fences/check",
                "{\"shard\":" + moved.get("shard") + ",\"token\":" + moved.get("token") + "}");
        assertEquals(true, fresh.map().get("current"));

        Api.Reply view = api.get("/groups/" + group);
        assertEquals(200, view.status());
        assertEquals(2, ((List<?>) view.map().get("workers")).size());
        assertEquals(6, ((List<?>) view.map().get("assignment")).size());
        assertEquals(0, view.number("handOvers"));

        assertEquals(204, api.delete("/groups/" + group + "/workers/" + w1).status());
        assertEquals(6, shards(api.post("/groups/" + group + "/workers/" + w2 + "/renew", "")).size(),
                "a worker that leaves hands its shards over at once");
        assertProblem(api.post("/groups/" + group + "/workers/" + w1 + "/renew", ""), 410, null);
        assertProblem(api.delete("/groups/" + group + "/workers/" + w1), 410, null);

        assertEquals(204, api.delete("/groups/" + group + "/workers/" + w2).status());
        assertEquals(0, ((List<?>) api.get("/groups/" + group).map().get("workers")).size(), "the last one left");
        assertProblem(api.post("/groups/" + group + "/workers/" + w2 + "/renew", ""), 410, null);

        assertEquals(204, api.delete("/groups/" + group).status());
        assertProblem(api.get("/groups/" + group), 404, null);
    }

    @Test
    void shouldExpireAWorkerThatStopsRenewingWithoutAnyoneCallingAndCountIt() {
        double expiriesBefore = counter("partita_lease_expiries_total");
        double grantsBefore = counter("partita_lease_grants_total");
        assertEquals(201, api.put("/groups/" + group, "{\"shards\":3,\"leaseSeconds\":1}").status());
        String worker = api.post("/groups/" + group + "/workers", "{}").text("workerId");
        assertEquals(1, ((List<?>) api.get("/groups/" + group).map().get("workers")).size());
        assertEquals(grantsBefore + 3, counter("partita_lease_grants_total"), "the join's three grants are counted");
        assertEquals(expiriesBefore, counter("partita_lease_expiries_total"), "nothing expired yet");

        // Only reads from here on: the oldest member's sweep is what removes the worker, and counts it once the
        // sweep's calls have answered.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Api.Reply view = api.get("/groups/" + group);
            assertEquals(0, ((List<?>) view.map().get("workers")).size(), view.toString());
            assertEquals(1, view.number("expiries"));
            assertEquals(expiriesBefore + 1, counter("partita_lease_expiries_total"),
                    "the expiry is counted for Prometheus");
        });
        assertProblem(api.post("/groups/" + group + "/workers/" + worker + "/renew", ""), 410, null);
    }

    /** The value of the counter {@code name} (one without labels) in this node's {@code /prometheus} scrape. */
    private double counter(String name) {
        return api.text("/prometheus").lines().filter(line -> line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(name.length() + 1))).findFirst()
                .orElseThrow(() -> new AssertionError(name + " is not in /prometheus"));
    }

    @Test
    void shouldRefuseBadInputWithAProblemAndChangeNothing() {
        assertProblem(api.put("/groups/" + group, "{\"shards\":0}"), 400, "shards");
        assertProblem(api.put("/groups/" + group, "{\"shards\":10001}"), 400, "shards");
        assertProblem(api.put("/groups/" + group, "{\"shards\":\"4\"}"), 400, "shards");
        assertProblem(api.put("/groups/" + group, "{\"shards\":2.5}"), 400, "shards");
        assertProblem(api.put("/groups/" + group, "{\"shards\":4,\"leaseSeconds\":301}"), 400, "leaseSeconds");
        assertProblem(api.put("/groups/" + group, "{}"), 400, "shards");
        assertProblem(api.put("/groups/bad%20name", "{\"shards\":4}"), 400, null);
        assertProblem(api.get("/groups/" + group), 404, null);
        assertProblem(api.post("/groups/" + group + "/workers", "{}"), 404, null);

        assertEquals(201, api.put("/groups/" + group, "{\"shards\":4}").status());
        assertProblem(api.post("/groups/" + group + "/workers", "{\"requestId\":\"" + "x".repeat(65) + "\"}"), 400,
                "requestId");
        assertProblem(api.post("/groups/" + group + "/workers/nobody/renew", ""), 410, null);
        assertProblem(api.post("/groups/" + group + "/fences/check", "{\"shard\":4,\"token\":1}"), 400, "shard");
        assertProblem(api.post("/groups/" + group + "/fences/check", "{\"shard\":-1,\"token\":1}"), 400, "shard");
        assertProblem(api.post("/groups/" + group + "/fences/check", "{\"shard\":0}"), 400, "token");
        Api.Reply view = api.get("/groups/" + group);
        assertEquals(200, view.status(), view.toString());
        assertEquals(0, ((List<?>) view.map().get("workers")).size(), "nothing joined");
    }
}
