package io.partita.load;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node frozen with SIGSTOP for longer than the member heartbeat timeout (8 s here), like a long GC pause, while the
 * load runs in locked mode (CP Subsystem with 3 members, so locks are Raft-backed and fenced): the other two remove
 * it and carry on from the backups; on SIGCONT Hazelcast finds it was removed and it suspects the others in turn and
 * forms a cluster of its own, which split-brain protection (2 of 3, as compose sets) keeps from serving the ledger
 * (503) until the split-brain merge brings it back within seconds, its stale copies dropped (the larger side's values
 * win: put-if-absent). No acknowledged write may be lost and no stale write may land, which the load tool's check
 * covers: a journal line or balance from the paused node overwriting newer data fails it.
 */
class PauseIT {

    private static ProcessCluster cluster;

    @BeforeAll
    static void startThreeNodes() throws Exception {
        cluster = new ProcessCluster("pause", 3, Map.of("PARTITA_CP_MEMBERS", "3",
                "PARTITA_HEARTBEAT_TIMEOUT", "8s", "PARTITA_REQUEST_TIMEOUT", "4s")).start();
    }

    @AfterAll
    static void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldLoseNothingAndLetNoStaleWriteLandWhenANodeIsPausedPastTheHeartbeatTimeout() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "pause", "locked", Duration.ofSeconds(25)),
                Duration.ofSeconds(4), () -> {
                    NodeProcess paused = cluster.node(2);
                    paused.signal("STOP");
                    try {
                        assertEveryReadAnswers(cluster.node(0));
                        // The others must notice (heartbeat timeout) and become safe without it.
                        cluster.awaitSafe(2, List.of(cluster.node(0), cluster.node(1)), Duration.ofSeconds(120));
                    } finally {
                        paused.signal("CONT");
                    }
                }, 3);
    }

    /**
     * Right after the pause, before the others have noticed it, reads of accounts (about a third of them owned by the
     * frozen member) sent to a live node must each get an answer: the account, or 503 with Retry-After once
     * partita.request-timeout (4 s here) is over. The client's own limit is far above that bound: it tells a hang
     * from an answer, it does not measure speed.
     */
    private static void assertEveryReadAnswers(NodeProcess live) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> reads = IntStream.range(0, 30)
                .mapToObj(i -> http.sendAsync(HttpRequest.newBuilder(URI.create(live.url() + "/accounts/pause-a" + i))
                        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString()))
                .toList();
        for (CompletableFuture<HttpResponse<String>> read : reads) {
            HttpResponse<String> response = read.join();
            assertTrue(response.statusCode() == 200 || response.statusCode() == 503
                    && response.headers().firstValue("Retry-After").isPresent(), () -> response.statusCode() + " "
                    + response.body());
        }
    }
}
