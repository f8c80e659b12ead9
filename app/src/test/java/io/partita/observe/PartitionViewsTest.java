package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.node.HazelcastConfigs;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The partition and migration views on real nodes: on three members the 271 rows add up (owners and backups are
 * members, entry counts sum to the map's size), and a fourth member's join moves only its share of the primaries,
 * as counted by a non-master node as well as the master.
 */
class PartitionViewsTest {

    private static final int ACCOUNTS = 3_000;
    private static final int PARTITIONS = HazelcastConfigs.PARTITION_COUNT;
    private static final Argument<List<Map<String, Object>>> ROWS =
            Argument.listOf(Argument.mapOf(String.class, Object.class));

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldAddUpOnThreeMembersAndMoveOnlyTheNewcomersShareWhenAFourthJoins() {
        try (TestNodes nodes = TestNodes.start(3)) {
            Map<String, Account> accounts = new HashMap<>();
            for (int i = 0; i < ACCOUNTS; i++) {
                accounts.put("acct-" + i, Account.open(i, 0));
            }
            AccountFeature.accounts(nodes.member(0)).putAll(accounts);
            nodes.awaitSize(3);

            List<Map<String, Object>> partitions = partitions(nodes.client(1));
            assertAddsUp(partitions, addresses(nodes.member(1)), ACCOUNTS);
            assertNodesAddUp(nodes.client(2), 3, ACCOUNTS);

            MigrationTracker master = nodes.servers().get(0).getApplicationContext().getBean(MigrationTracker.class);
            MigrationTracker other = nodes.servers().get(2).getApplicationContext().getBean(MigrationTracker.class);
            long masterBefore = master.partitionsMoved();
            long otherBefore = other.partitionsMoved();

            nodes.addNode();
            nodes.awaitSize(4);

            // A join moves at least the newcomer's fair share (271 / 4 rounded down) and, planned well, not much more.
            int minimum = PARTITIONS / 4;
            await().atMost(Duration.ofSeconds(60)).until(() -> master.inFlight() == 0 && other.inFlight() == 0
                    && master.partitionsMoved() - masterBefore >= minimum
                    && other.partitionsMoved() - otherBefore >= minimum);
            for (MigrationTracker tracker : List.of(master, other)) {
                long moved = tracker.partitionsMoved() - (tracker == master ? masterBefore : otherBefore);
                assertTrue(moved >= minimum && moved <= minimum * 1.2, "moved " + moved);
            }
            Map<String, Object> migrations = nodes.client(2).toBlocking()
                    .retrieve(HttpRequest.GET("/cluster/migrations"), Argument.mapOf(String.class, Object.class));
            assertEquals(other.partitionsMoved(), ((Number) migrations.get("partitionsMoved")).longValue());
            assertTrue(((Number) migrations.get("completed")).longValue() >= minimum);
            List<?> processes = (List<?>) migrations.get("recentProcesses");
            assertTrue(!processes.isEmpty(), migrations.toString());

            List<Map<String, Object>> after = partitions(nodes.client(3));
            assertAddsUp(after, addresses(nodes.member(3)), ACCOUNTS);
            String newcomer = ClusterController.address(nodes.member(3).getCluster().getLocalMember());
            long ownedByNewcomer = after.stream().filter(p -> newcomer.equals(p.get("owner"))).count();
            assertTrue(ownedByNewcomer >= minimum, "the newcomer owns " + ownedByNewcomer);
        }
    }

    /** 271 rows in id order; owners and backups are members, never the same; counts sum to the map's size. */
    private static void assertAddsUp(List<Map<String, Object>> partitions, Set<String> members, int size) {
        assertEquals(PARTITIONS, partitions.size());
        long entries = 0;
        for (int id = 0; id < PARTITIONS; id++) {
            Map<String, Object> partition = partitions.get(id);
            assertEquals(id, ((Number) partition.get("id")).intValue());
            String owner = (String) partition.get("owner");
            assertTrue(members.contains(owner), "owner " + owner + " of " + id + " is not one of " + members);
            @SuppressWarnings("unchecked")
            List<String> backups = (List<String>) partition.get("backups");
            assertEquals(1, backups.size(), "backups of " + id);
            assertTrue(members.contains(backups.get(0)));
            assertNotEquals(owner, backups.get(0));
            assertNotNull(partition.get("entries"), "entries of " + id);
            entries += ((Number) partition.get("entries")).longValue();
        }
        assertEquals(size, entries);
    }

    private static void assertNodesAddUp(HttpClient client, int members, int size) {
        List<Map<String, Object>> nodes = client.toBlocking().retrieve(HttpRequest.GET("/cluster/nodes"), ROWS);
        assertEquals(members, nodes.size());
        assertEquals(PARTITIONS, nodes.stream().mapToInt(n -> ((Number) n.get("ownedPartitions")).intValue()).sum());
        assertEquals(size, nodes.stream().mapToLong(n -> ((Number) n.get("accounts")).longValue()).sum());
    }

    private static List<Map<String, Object>> partitions(HttpClient client) {
        return client.toBlocking().retrieve(HttpRequest.GET("/cluster/partitions"), ROWS);
    }

    private static Set<String> addresses(HazelcastInstance member) {
        return member.getCluster().getMembers().stream().map(ClusterController::address)
                .collect(Collectors.toSet());
    }
}
