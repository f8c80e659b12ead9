package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.AccountFeature;
import io.partita.node.PartitionKeys;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.Refusal;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One partition's task on a real member, run by the test instead of a coordinator, so that what it does after its
 * job FAILED can be counted: it notices within {@link PartitionTask#RECHECK_SLICES} slices and stops charging; and so
 * that a partition whose data is gone is refused rather than finished with no accounts.
 */
class JobPartitionTaskTest {

    private static final int ACCOUNTS = 200;
    private static final long FEE = 10;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldStopChargingSoonAfterItsJobFailed() throws Exception {
        try (TestCluster cluster = TestCluster.start(1)) {
            HazelcastInstance member = cluster.member(0);
            int partition = member.getPartitionService().getPartition("stop-0").getPartitionId();
            List<TestAccount> opening = new ArrayList<>();
            for (int n = 0; opening.size() < ACCOUNTS; n++) {
                if (member.getPartitionService().getPartition("stop-" + n).getPartitionId() == partition) {
                    opening.add(new TestAccount("stop-" + n, 1_000, 0));
                }
            }
            JobMembers.open(member, opening);
            HashSet<String> ids = new HashSet<>(opening.stream().map(TestAccount::id).toList());
            Job job = Job.start("stop-1", "r1", new JobSpec(JobType.FEE, FEE, 0, true), null,
                    System.currentTimeMillis(), "no-coordinator");
            JobFeature.jobs(member).set(job.id(), job);
            // One account a slice and a pause between slices: a few seconds for the partition.
            PartitionTask task = new PartitionTask(job.id(), job.run(), partition,
                    PartitionKeys.of(member, partition), 1, 10, 60_000);
            task.setHazelcastInstance(member);

            CompletableFuture<Long> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return task.call();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> charged(member, ids) >= 5);
            JobFeature.jobs(member).executeOnKey(job.id(), new FailJob("failed by the test", System.currentTimeMillis(),
                    60_000));
            long chargedWhenFailed = charged(member, ids);

            assertEquals(-1L, running.get(60, TimeUnit.SECONDS), "the task stopped instead of finishing");
            long chargedInTheEnd = charged(member, ids);
            assertTrue(chargedInTheEnd - chargedWhenFailed <= PartitionTask.RECHECK_SLICES,
                    chargedWhenFailed + " charged when the job failed, " + chargedInTheEnd + " in the end");
            assertTrue(chargedInTheEnd < ACCOUNTS);
            Job failed = JobFeature.jobs(member).get(job.id());
            assertEquals(JobState.FAILED, failed.state());
            assertEquals(0, failed.partitionsDone(), "a failed job takes no more partitions");
        }
    }

    /**
     * A partition whose data this side lost (its sentinel gone, as when every copy is across a split) is refused as
     * partition-lost, a transient refusal the coordinator retries, and not recorded done with no accounts; once the
     * data is back the same task charges the partition's accounts.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldRefuseAPartitionWhoseDataIsGoneInsteadOfFinishingItEmpty() throws Exception {
        try (TestCluster cluster = TestCluster.start(1)) {
            HazelcastInstance member = cluster.member(0);
            int partition = member.getPartitionService().getPartition("lost-0").getPartitionId();
            JobMembers.open(member, List.of(new TestAccount("lost-0", 1_000, 0)));
            Job job = Job.start("lost-1", "r1", new JobSpec(JobType.FEE, FEE, 0, true), null,
                    System.currentTimeMillis(), "no-coordinator");
            JobFeature.jobs(member).set(job.id(), job);
            PartitionTask task = new PartitionTask(job.id(), job.run(), partition,
                    PartitionKeys.of(member, partition), 64, 0, 60_000);
            task.setHazelcastInstance(member);
            member.getMap(PartitionSentinels.MAP).delete(PartitionKeys.of(member, partition));

            Refusal refused = assertThrows(Refusal.class, task::call);
            assertEquals(Refusal.Kind.PARTITION_LOST, refused.kind());
            assertTrue(refused.isTransient(), "the coordinator sends it again");
            assertEquals(0, JobFeature.jobs(member).get(job.id()).partitionsDone());

            PartitionSentinels.of(member).restore(partition);
            assertEquals(1L, task.call());
            assertEquals(1_000 - FEE, AccountFeature.accounts(member).get("lost-0").balance());
            assertEquals(1, JobFeature.jobs(member).get(job.id()).partitionsDone());
        }
    }

    private static long charged(HazelcastInstance member, HashSet<String> ids) {
        return AccountFeature.accounts(member).getAll(ids).values().stream()
                .filter(account -> account.balance() == 1_000 - FEE).count();
    }
}
