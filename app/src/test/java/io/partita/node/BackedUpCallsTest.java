package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.impl.operationservice.Operation;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.TestAccess;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A batch of transactions on several accounts of one partition is acknowledged only once its backup holds it. The
 * backup member's partition thread is held busy, so the backup cannot be applied: {@code IMap.submitToKeys} answers
 * anyway (Hazelcast's partition-iterating path waits for the primaries only), {@link BackedUpCalls} does not.
 */
class BackedUpCallsTest {

    private static TestCluster cluster;

    @BeforeAll
    static void startTwoMembers() {
        cluster = TestCluster.start(2);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldAnswerABatchOnlyOnceItsBackupHoldsIt() throws Exception {
        HazelcastInstance owner = cluster.member(0);
        List<String> keys = twoAccountsOwnedBy(owner, "backed");
        IMap<String, Account> accounts = AccountFeature.accounts(owner);

        CompletableFuture<Map<String, TxOutcomes>> call;
        try (Busy busy = Busy.backupOf(keys.get(0))) {
            // Sent from the other member: the operation travels to the owner (and its backup back to the sender).
            call = BackedUpCalls.submitToKeys(cluster.member(1), AccountFeature.ACCOUNTS, keys, credits(keys, "b-1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> accounts.get(keys.get(1)).balance() == 1_010);
            assertFalse(call.isDone(), "applied on the owner, not yet acknowledged: its backup is not in");
        }
        Map<String, TxOutcomes> outcomes = call.get(10, TimeUnit.SECONDS);
        assertEquals(1_010, outcomes.get(keys.get(0)).list().get(0).entry().balanceAfter());
        assertEquals(1_010, outcomes.get(keys.get(1)).list().get(0).entry().balanceAfter());
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldShowWhyImapSubmitToKeysIsNotUsedForWrites() throws Exception {
        HazelcastInstance owner = cluster.member(0);
        List<String> keys = twoAccountsOwnedBy(owner, "plain");
        IMap<String, Account> accounts = AccountFeature.accounts(owner);

        try (Busy busy = Busy.backupOf(keys.get(0))) {
            Map<String, TxOutcomes> outcomes = accounts.submitToKeys(Set.copyOf(keys),
                    credits(keys, "p-1")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertEquals(2, outcomes.size(), "answered while the backup member could not apply anything");
        }
    }

    private static EntryProcessor<String, Account, TxOutcomes> credits(List<String> keys, String txId) {
        long now = System.currentTimeMillis();
        return TestAccess.applyTransactions(Map.of(keys.get(0), List.of(TxRequest.of(txId, TxType.CREDIT, 10, now)),
                keys.get(1), List.of(TxRequest.of(txId, TxType.CREDIT, 10, now))));
    }

    /** Two accounts of 1,000 in one partition whose owner is {@code owner} (its backup is then the other member). */
    private static List<String> twoAccountsOwnedBy(HazelcastInstance owner, String prefix) {
        List<String> keys = twoKeysOwnedBy(owner, prefix);
        keys.forEach(key -> AccountFeature.accounts(owner).set(key, Account.open(1_000, 0)));
        return keys;
    }

    /** Two keys of one partition whose owner is {@code owner} (its backup is then the other member). */
    private static List<String> twoKeysOwnedBy(HazelcastInstance owner, String prefix) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 2; i++) {
            String key = prefix + "-" + i;
            var partition = owner.getPartitionService().getPartition(key);
            boolean samePartition = keys.isEmpty() || owner.getPartitionService().getPartition(keys.get(0))
                    .getPartitionId() == partition.getPartitionId();
            if (partition.getOwner().localMember() && samePartition) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Holds the backup member's thread of a key's partition busy until closed: backups queue behind it. */
    private static final class Busy implements AutoCloseable {
        private final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        static Busy backupOf(String key) throws InterruptedException {
            HazelcastInstance backup = cluster.member(1);
            Busy busy = new Busy();
            Operation hold = new Operation() {
                @Override
                public void run() throws Exception {
                    busy.started.countDown();
                    busy.release.await(30, TimeUnit.SECONDS);
                }

                @Override
                public boolean returnsResponse() {
                    return false;
                }

                @Override
                public boolean validatesTarget() {
                    return false;
                }
            };
            hold.setPartitionId(backup.getPartitionService().getPartition(key).getPartitionId());
            Internals.nodeEngine(backup).getOperationService().execute(hold);
            busy.started.await(10, TimeUnit.SECONDS);
            return busy;
        }

        @Override
        public void close() {
            release.countDown();
        }
    }
}
