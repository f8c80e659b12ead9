package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.TestAccess;
import io.partita.account.TxOutcome;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job never holds a partition thread for long: while a FEE job is half-way through one crowded partition,
 * single transactions on accounts of that very partition (done and not yet done by the job) complete.
 */
class JobTrafficTest {

    private static final int HOT_ACCOUNTS = 1_500;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldCompleteTransactionsOnAPartitionWhileTheJobIsProcessingIt() throws Exception {
        // 8 accounts per batch and a short pause between batches: the crowded partition takes a few seconds.
        try (TestCluster cluster = TestCluster.start(2);
             JobMembers jobs = new JobMembers(JobMembers.settings(8, Duration.ofMillis(10)))) {
            cluster.members().forEach(jobs::on);
            HazelcastInstance member = cluster.member(0);
            List<String> hot = keysOfOnePartition(member);
            List<TestAccount> opening = new ArrayList<>();
            hot.forEach(id -> opening.add(new TestAccount(id, 1_000, 0)));
            for (int i = 0; i < 300; i++) {
                opening.add(new TestAccount("acc-" + i, 1_000, 0));
            }
            JobMembers.open(member, opening);

            String runKey = jobs.jobs(member).start("fee-traffic", new JobSpec(JobType.FEE, 1, 0, false)).runKey();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> processed(member, hot, runKey) > 0);

            // The partitioned path itself: the transaction's entry processor, sent to the account's owner.
            var accounts = AccountFeature.accounts(cluster.member(1));
            Set<String> credited = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                // Spread over the partition: early ones the job has done, later ones it has not reached yet.
                String id = hot.get(i * (HOT_ACCOUNTS / 20));
                @SuppressWarnings("unchecked")
                var credit = (EntryProcessor<String, Account, TxOutcomes>) TestAccess.applyTransaction(id,
                        TxRequest.of("t-" + i, TxType.CREDIT, 5, System.currentTimeMillis()));
                TxOutcome outcome = accounts.submitToKey(id, credit).toCompletableFuture()
                        .get(30, TimeUnit.SECONDS).list().get(0);
                assertEquals(TxStatus.APPLIED, outcome.entry().status());
                credited.add(id);
            }
            int processedAfterTraffic = processed(member, hot, runKey);
            assertTrue(processedAfterTraffic < HOT_ACCOUNTS,
                    "the transactions completed while the job was still inside the partition: "
                            + processedAfterTraffic + " of " + HOT_ACCOUNTS + " done");

            await().atMost(Duration.ofMinutes(2))
                    .until(() -> JobFeature.jobs(member).get("fee-traffic").state() == JobState.COMPLETED);
            Map<String, Account> now = AccountFeature.accounts(member).getAll(new HashSet<>(hot));
            for (String id : hot) {
                Account account = now.get(id);
                assertEquals(1_000 - 1 + (credited.contains(id) ? 5 : 0), account.balance(), id);
                assertEquals(credited.contains(id) ? 2 : 1, account.version(), id);
            }
            assertEquals(HOT_ACCOUNTS + 300, JobFeature.jobs(member).get("fee-traffic").tally().applied());
        }
    }

    /** Account ids that all fall in the partition of "hot-0". */
    private static List<String> keysOfOnePartition(HazelcastInstance member) {
        var partitions = member.getPartitionService();
        int partition = partitions.getPartition("hot-0").getPartitionId();
        List<String> keys = new ArrayList<>();
        for (int n = 0; keys.size() < HOT_ACCOUNTS; n++) {
            String key = "hot-" + n;
            if (partitions.getPartition(key).getPartitionId() == partition) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** @param runKey what an account the job processed remembers it by ({@link Job#runKey()}) */
    private static int processed(HazelcastInstance member, List<String> ids, String runKey) {
        return (int) AccountFeature.accounts(member).getAll(new HashSet<>(ids)).values().stream()
                .filter(account -> account.hasSeenJob(runKey)).count();
    }
}
