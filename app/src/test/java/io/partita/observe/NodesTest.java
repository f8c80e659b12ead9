package io.partita.observe;

import io.partita.support.Api;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Three whole nodes: any node serves any account, /cluster agrees everywhere, and a node leaves without loss. */
class NodesTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeEveryAccountFromEveryNodeAndSurviveAGracefulLeave() {
        try (TestNodes nodes = TestNodes.start(3)) {
            List<Api> apis = List.of(Api.of(nodes, 0), Api.of(nodes, 1), Api.of(nodes, 2));

            for (Api api : apis) {
                Api.Reply cluster = api.get("/cluster");
                List<Map<String, Object>> members = members(cluster);
                assertEquals(3, members.size());
                assertEquals(271, members.stream().mapToInt(m -> ((Number) m.get("ownedPartitions")).intValue()).sum());
                assertEquals(1, members.stream().filter(m -> Boolean.TRUE.equals(m.get("local"))).count());
                Set<String> urls = members.stream().map(m -> (String) m.get("httpUrl")).collect(Collectors.toSet());
                // Derived from the member's address and the HTTP port, so other nodes and clients can reach it.
                assertEquals(Set.of(0, 1, 2).stream().map(n -> "http://127.0.0.1:" + nodes.url(n).getPort())
                        .collect(Collectors.toSet()), urls);
            }

            for (int i = 0; i < 30; i++) {
                assertEquals(201, apis.get(i % 3).post("/accounts", "{\"id\":\"n-" + i + "\",\"balance\":100}").status());
            }
            for (int i = 0; i < 30; i++) {
                Api.Reply reply = apis.get((i + 1) % 3).post("/accounts/n-" + i + "/transactions",
                        "{\"txId\":\"t-" + i + "\",\"type\":\"CREDIT\",\"amount\":" + (i + 1) + "}");
                assertEquals(200, reply.status(), reply.toString());
            }
            Api.Reply replayed = apis.get(2).post("/accounts/n-7/transactions",
                    "{\"txId\":\"t-7\",\"type\":\"CREDIT\",\"amount\":8}");
            assertEquals("true", replayed.headers().get("Idempotent-Replayed"));

            nodes.stop(2);
            nodes.awaitSize(2);

            for (int i = 0; i < 30; i++) {
                Api.Reply account = apis.get(i % 2).get("/accounts/n-" + i);
                assertEquals(101 + i, account.number("balance"), account.toString());
                assertEquals(1, account.number("version"));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> apis.get(0).get("/health/readiness").status() == 200);
            // Each node learns whether the cluster is safe on its own schedule (ClusterSafety), so wait for node 1 too.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Boolean.TRUE.equals(apis.get(1).get("/cluster").map().get("clusterSafe")));
            assertEquals(2, members(apis.get(1).get("/cluster")).size());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> members(Api.Reply cluster) {
        return (List<Map<String, Object>>) cluster.map().get("members");
    }
}
