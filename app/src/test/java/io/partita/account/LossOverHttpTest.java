package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.HazelcastConfigs;
import io.partita.node.PartitionSentinels;
import io.partita.support.Api;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client hears over HTTP from the last of three nodes after the other two crash at once. While it hears no
 * majority it withholds every answer (503 unavailable: it cannot tell two crashes from a network split); once an admin
 * declares the two gone ({@code DELETE /cluster/missing}), accounts whose every copy died answer 503 partition-lost,
 * in both processing modes, and cannot be opened again, and the others answer with their balances. Lease groups and
 * schedules in those partitions are refused the same way, on every route that would otherwise answer 404 or create
 * one in the place of the lost one.
 */
class LossOverHttpTest {

    private static final String SCHEDULE = "{\"cron\":\"0 0 1 1 *\",\"job\":{\"type\":\"AUDIT\",\"concurrent\":true}}";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldWithholdAnswersWithoutAMajorityThenAnswerPartitionLostForWhatDied() throws InterruptedException {
        try (TestNodes nodes = TestNodes.start(3)) {
            Api api = Api.of(nodes, 0);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                ids.add(api.openAccount("loss", Map.of("balance", 1_000 + i)));
            }
            List<String> groups = new ArrayList<>();
            List<String> schedules = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String group = Api.uniqueId("loss-group");
                assertEquals(201, api.put("/groups/" + group, "{\"shards\":2}").status());
                groups.add(group);
                String schedule = Api.uniqueId("loss-schedule");
                assertEquals(200, api.put("/schedules/" + schedule, SCHEDULE).status());
                schedules.add(schedule);
            }
            HazelcastInstance survivor = nodes.member(0);

            // Both members die at once, before either's partitions can be copied again; then their nodes close.
            HazelcastInstance first = nodes.member(1);
            HazelcastInstance second = nodes.member(2);
            Thread crash = new Thread(() -> second.getLifecycleService().terminate());
            crash.start();
            first.getLifecycleService().terminate();
            crash.join();
            nodes.kill(2);
            nodes.kill(1);
            await().atMost(Duration.ofSeconds(60)).until(() -> !HazelcastConfigs.majorityPresent(survivor));

            assertUnavailable(api.get("/accounts/" + ids.get(0)), "unavailable");
            assertUnavailable(api.post("/accounts", Map.of("id", Api.uniqueId("loss-new"))), "unavailable");
            assertUnavailable(api.post("/accounts/" + ids.get(0) + "/transactions",
                    Map.of("txId", "t-cut", "type", "CREDIT", "amount", 1)), "unavailable");

            Api.Reply forgotten = api.delete("/cluster/missing");
            assertEquals(200, forgotten.status(), forgotten.toString());
            await().atMost(Duration.ofSeconds(30)).until(() -> HazelcastConfigs.majorityPresent(survivor));
            await().atMost(Duration.ofSeconds(30)).until(() -> !PartitionSentinels.of(survivor).lostPartitions()
                    .isEmpty());

            int lost = 0;
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                int partition = survivor.getPartitionService().getPartition(id).getPartitionId();
                Api.Reply account = api.get("/accounts/" + id);
                if (PartitionSentinels.of(survivor).lostPartitions().contains(partition)) {
                    lost++;
                    assertUnavailable(account, "partition-lost");
                    assertUnavailable(api.post("/accounts", Map.of("id", id)), "partition-lost");
                } else {
                    assertEquals(200, account.status(), account.toString());
                    assertEquals(1_000 + i, account.number("balance"), id);
                }
            }
            assertTrue(lost > 0, "with three members, two crashing at once take some partitions' every copy");
            assertFalse(lost == ids.size(), "and leave the others");

            List<Integer> lostPartitions = PartitionSentinels.of(survivor).lostPartitions();
            String lostAccount = ids.stream().filter(id -> lostPartitions.contains(partitionOf(survivor, id)))
                    .findFirst().orElseThrow();
            assertUnavailable(api.post("/accounts/" + lostAccount + "/transactions?mode=locked",
                    Map.of("txId", "t-locked", "type", "CREDIT", "amount", 1)), "partition-lost");
            int lostGroups = 0;
            for (String group : groups) {
                if (lostPartitions.contains(partitionOf(survivor, group))) {
                    lostGroups++;
                    assertUnavailable(api.get("/groups/" + group), "partition-lost");
                    assertUnavailable(api.post("/groups/" + group + "/fences/check", "{\"shard\":0,\"token\":1}"),
                            "partition-lost");
                    assertUnavailable(api.post("/groups/" + group + "/workers/w-1/renew", "{}"), "partition-lost");
                    assertUnavailable(api.post("/groups/" + group + "/workers", "{}"), "partition-lost");
                    assertUnavailable(api.delete("/groups/" + group + "/workers/w-1"), "partition-lost");
                    assertUnavailable(api.put("/groups/" + group, "{\"shards\":2}"), "partition-lost");
                    assertUnavailable(api.delete("/groups/" + group), "partition-lost");
                } else {
                    assertEquals(200, api.get("/groups/" + group).status(), group);
                }
            }
            int lostSchedules = 0;
            for (String schedule : schedules) {
                if (lostPartitions.contains(partitionOf(survivor, schedule))) {
                    lostSchedules++;
                    assertUnavailable(api.get("/schedules/" + schedule), "partition-lost");
                    assertUnavailable(api.put("/schedules/" + schedule, SCHEDULE), "partition-lost");
                    assertUnavailable(api.delete("/schedules/" + schedule), "partition-lost");
                } else {
                    assertEquals(200, api.get("/schedules/" + schedule).status(), schedule);
                }
            }
            assertTrue(lostGroups > 0 && lostSchedules > 0, lostGroups + " groups, " + lostSchedules + " schedules");
        }
    }

    private static int partitionOf(HazelcastInstance member, String key) {
        return member.getPartitionService().getPartition(key).getPartitionId();
    }

    private static void assertUnavailable(Api.Reply reply, String problemType) {
        assertEquals(503, reply.status(), reply.toString());
        assertTrue(reply.contentType().startsWith("application/problem+json"), reply.toString());
        assertTrue(reply.text("type").endsWith("/" + problemType), reply.toString());
        assertNotNull(reply.text("detail"), reply.toString());
    }
}
