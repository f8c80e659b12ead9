package io.partita.load;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three node processes from the built jar, partitioned mode, the load tool's workload through HTTP, and one fault per
 * test, chained on the same cluster to save start-up time: kill -9 and restart, SIGTERM (graceful leave) and restart,
 * a fourth node joining. After each the cluster is safe again and every acknowledged operation checks out.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrashLeaveJoinIT {

    private static final Duration LOAD = Duration.ofSeconds(15);
    private static ProcessCluster cluster;

    @BeforeAll
    static void startThreeNodes() throws Exception {
        cluster = new ProcessCluster("crash-leave-join", 3, Map.of()).start();
    }

    @AfterAll
    static void stopAll() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void shouldKeepEveryAcknowledgedTransactionWhenANodeIsKilledAndRestarted() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "kill9", "partitioned", LOAD),
                Duration.ofSeconds(5), () -> {
                    NodeProcess victim = cluster.node(2);
                    victim.signal("KILL");
                    assertTrue(victim.awaitExit(Duration.ofSeconds(10)));
                    cluster.awaitSafe(2);
                    cluster.restart(2);
                }, 3);
    }

    @Test
    @Order(2)
    void shouldKeepEveryAcknowledgedTransactionWhenANodeLeavesGracefully() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "sigterm", "partitioned", LOAD),
                Duration.ofSeconds(5), () -> {
                    NodeProcess leaving = cluster.node(1);
                    leaving.signal("TERM");
                    assertTrue(leaving.awaitExit(Duration.ofSeconds(60)), "the node stops on SIGTERM");
                    cluster.awaitSafe(2);
                    cluster.restart(1);
                }, 3);
    }

    @Test
    @Order(3)
    void shouldKeepEveryAcknowledgedTransactionWhenANodeJoins() throws Exception {
        FaultScenarios.run(cluster, FaultScenarios.options(cluster, "join", "partitioned", LOAD),
                Duration.ofSeconds(4), cluster::join, 4);
    }
}
