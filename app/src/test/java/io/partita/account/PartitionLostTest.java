package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.HazelcastConfigs;
import io.partita.node.MembershipNotice;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.support.TestCluster;
import io.partita.transaction.PartitionedPath;
import io.partita.transfer.TransferState;
import io.partita.transfer.TransferTestAccess;
import io.partita.web.Refusals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two of three members crash at once: the partitions whose owner and backup were both on them lose every copy. The
 * survivor refuses everything (it hears from no majority) until an admin declares the two gone; then those accounts
 * must answer 503 partition-lost (not 404, and they must not be opened again over the loss), the survivor
 * must list those partitions as lost, and every account in a partition it does not list must keep its balance.
 */
class PartitionLostTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAnswerPartitionLostAndRefuseToReopenWhenEveryCopyIsGone() throws InterruptedException {
        try (TestCluster cluster = TestCluster.start(3)) {
            HazelcastInstance survivor = cluster.member(0);
            TestAccess.Services services = TestAccess.Services.on(survivor, cluster.properties(0));
            AccountService service = services.accounts();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                ids.add("acc-" + i);
                service.open("acc-" + i, 1_000 + i, 0).toCompletableFuture().join();
            }
            // The partitions neither of whose copies is on the survivor.
            Set<Integer> doomed = new TreeSet<>();
            for (int partition = 0; partition < 271; partition++) {
                var owner = survivor.getPartitionService().getPartition(partition).getOwner();
                if (!owner.localMember() && !hasBackupOn(survivor, partition)) {
                    doomed.add(partition);
                }
            }
            assertFalse(doomed.isEmpty(), "with 3 members some partitions have no copy on any one of them");

            HazelcastInstance first = cluster.member(1);
            HazelcastInstance second = cluster.member(2);
            Thread crash = new Thread(() -> cluster.terminate(first));
            crash.start();
            cluster.terminate(second);
            crash.join();
            cluster.awaitSize(1);
            cluster.awaitSafe();
            // Alone out of three, the survivor cannot tell two crashes from a network split: it refuses, as the
            // minority side of one must, until an admin declares the other two gone.
            await().atMost(Duration.ofSeconds(30)).until(() -> !HazelcastConfigs.majorityPresent(survivor));
            CompletionException cutOff = assertThrows(CompletionException.class,
                    () -> service.find(ids.get(0)).toCompletableFuture().join());
            assertEquals(GridFailures.cutOff().detail(), assertInstanceOf(Refusal.class, cutOff.getCause()).detail());
            MembershipNotice.forgetMissing(survivor, "test");
            await().atMost(Duration.ofSeconds(30)).until(() -> HazelcastConfigs.majorityPresent(survivor));

            // Every partition without a copy on the survivor is lost; a few more can be, when the first crash set off
            // migrations that the second cut short. Whatever is lost must say so, and nothing else may be missing.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertTrue(PartitionSentinels.of(survivor).lostPartitions().containsAll(doomed),
                            "lost " + PartitionSentinels.of(survivor).lostPartitions() + ", expected " + doomed));
            Set<Integer> lost = new TreeSet<>(PartitionSentinels.of(survivor).lostPartitions());
            int lostAccounts = 0;
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                if (lost.contains(service.partitionOf(id))) {
                    lostAccounts++;
                    assertPartitionLost(service.find(id));
                    assertPartitionLost(service.open(id, 5, 0));
                    assertPartitionLost(services.transactions().apply(id, TxRequest.of("t-" + i, TxType.CREDIT, 1,
                            1L), null)
                            .thenApply(outcome -> {
                                assertEquals(TxOutcome.Kind.PARTITION_LOST, outcome.kind());
                                throw Refusal.partitionLost("Account", id, 0);
                            }));
                } else {
                    assertEquals(1_000 + i, service.find(id).toCompletableFuture().join().orElseThrow().balance(),
                            "balance of " + id + " on a partition that kept a copy");
                }
            }
            assertTrue(lostAccounts > 0, "some of the accounts were on the lost partitions");

            // A transfer whose destination is in a lost partition is not decided: refunding it as "no such account"
            // would answer 404 for an account that exists. It stays debited, for recovery once the data is back.
            String kept = ids.stream().filter(id -> !lost.contains(service.partitionOf(id))).findFirst().orElseThrow();
            String gone = ids.stream().filter(id -> lost.contains(service.partitionOf(id))).findFirst().orElseThrow();
            TransferTestAccess.Recovery recovery = TransferTestAccess.recoverDebited(survivor, service,
                    new PartitionedPath(survivor), cluster.properties(0), "tr-lost", kept, gone, 10);
            Refusal refused = assertInstanceOf(Refusal.class, recovery.failure());
            assertEquals(503, Refusals.status(refused));
            assertEquals(TransferState.DEBITED, recovery.state(), "left for recovery, not refunded");
        }
    }

    private static boolean hasBackupOn(HazelcastInstance member, int partition) {
        return io.partita.node.LocalStores.of(member).size(io.partita.node.PartitionSentinels.MAP, partition) > 0;
    }

    private static void assertPartitionLost(CompletionStage<?> call) {
        CompletionException failure = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                () -> call.toCompletableFuture().join());
        Refusal api = assertInstanceOf(Refusal.class, failure.getCause());
        assertEquals(503, Refusals.status(api));
        assertTrue(Refusals.problem(api).type().endsWith("/partition-lost"), Refusals.problem(api).type());
    }
}
