package io.partita.load;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three node processes, configured as compose configures its nodes with the default heartbeat timeout, at saturating
 * load: the load tool with 64 clients and no pause between calls, for 40 s (the full soak: {@code
 * -Dpartita.soak.seconds=600}). Seed 004's lease balancer failed exactly here: busy nodes missed their renewals and
 * partitions jumped between hosts. A busy Partita member must keep its membership and its partitions: afterwards every
 * node sees the same three members (by UUID) as before, no migration has run since the load began, and the load
 * tool's check passes.
 */
class SoakIT {

    @AutoClose
    private static ProcessCluster cluster;

    @BeforeAll
    static void startThreeNodes() throws Exception {
        cluster = new ProcessCluster("soak", 3, Map.of()).start();
    }

    @Test
    void shouldKeepEveryMemberAndEveryPartitionInPlaceUnderSaturatingLoad() throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Duration soak = Duration.ofSeconds(Long.getLong("partita.soak.seconds", 40));
        String targets = String.join(",", cluster.urls().stream().map(Object::toString).toList());
        Workload workload = new Workload(LoadOptions.parse("--targets", targets, "--accounts", "2000",
                "--duration", soak.toMillis() + "ms", "--mode", "partitioned", "--retries", "10%",
                "--transfers", "10%", "--concurrency", "64", "--prefix", "soak", "--give-up", "60s",
                "--settle", "60s"), out);
        workload.open();
        List<Set<String>> membersBefore = membersSeenByEachNode();
        long migrationsBefore = migrationProcesses();

        workload.drive();

        List<Set<String>> membersAfter = membersSeenByEachNode();
        long migrationsAfter = migrationProcesses();
        Verification.Verdict verdict = workload.settleAndVerify();
        verdict.failures().forEach(f -> out.println("  " + f));
        out.printf("soak of %d s: %s; members before %s, after %s; migration processes %d before, %d after%n",
                soak.toSeconds(), verdict.summary(), membersBefore.get(0), membersAfter, migrationsBefore,
                migrationsAfter);

        assertEquals(3, membersBefore.get(0).size());
        for (Set<String> seen : membersAfter) {
            assertEquals(membersBefore.get(0), seen, "every node still sees the same three members: none removed");
        }
        assertEquals(migrationsBefore, migrationsAfter, "no partition moved while the nodes were saturated");
        assertTrue(verdict.pass(), () -> verdict.summary() + " " + verdict.failures());
        assertTrue(verdict.acknowledged() > 0, "the load was acknowledged");
    }

    /** The member UUIDs each node's {@code /cluster} lists. */
    @SuppressWarnings("unchecked")
    private static List<Set<String>> membersSeenByEachNode() {
        List<Set<String>> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            NodeProcess node = cluster.node(i);
            String body = node.get("/cluster");
            assertNotNull(body, node::describe);
            Set<String> uuids = new TreeSet<>();
            for (Object member : (List<Object>) Json.object(body).get("members")) {
                uuids.add((String) ((Map<String, Object>) member).get("uuid"));
            }
            seen.add(uuids);
        }
        return seen;
    }

    /** Migration processes (rebalances) the first node has seen in the whole cluster since it joined. */
    private static long migrationProcesses() {
        String body = cluster.node(0).get("/cluster/migrations");
        assertNotNull(body, () -> cluster.node(0).describe());
        return ((Number) Json.object(body).get("processes")).longValue();
    }
}
