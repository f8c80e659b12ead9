package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.support.Ledgers;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sharded job under membership changes: 3 members, 5,000 accounts, a FEE job; a fourth member joins and then the
 * member that coordinates the job crashes while the job runs. The job still completes, every account paid the fee
 * exactly once (or was recorded as unable to), and the journal holds one job entry per account.
 */
class FeeJobFailoverTest {

    private static final int ACCOUNTS = 5_000;
    private static final long FEE = 100;

    /** Most accounts can pay; every 25th cannot (REJECTED); every 40th pays into its overdraft. */
    private static TestAccount opening(int i) {
        String id = "acc-" + i;
        if (i % 25 == 0) {
            return new TestAccount(id, 40, 0);
        }
        if (i % 40 == 0) {
            return new TestAccount(id, 50, 100);
        }
        return new TestAccount(id, 1_000 + i % 500, 0);
    }

    private static long expectedBalance(TestAccount open) {
        long after = open.balance() - FEE;
        return after >= -open.overdraftLimit() ? after : open.balance();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldChargeEveryAccountExactlyOnceWhileAMemberJoinsAndTheCoordinatorCrashes() {
        // Two accounts per batch and a pause between batches stretch the job to several seconds, so that the join
        // and the crash happen while it runs.
        try (TestCluster cluster = TestCluster.start(3);
             JobMembers jobs = new JobMembers(JobMembers.settings(2, Duration.ofMillis(40)))) {
            cluster.members().forEach(jobs::on);
            List<TestAccount> opening = new ArrayList<>();
            for (int i = 0; i < ACCOUNTS; i++) {
                opening.add(opening(i));
            }
            JobMembers.open(cluster.member(0), opening);

            HazelcastInstance coordinator = cluster.member(0);
            String coordinatorId = coordinator.getCluster().getLocalMember().getUuid().toString();
            HazelcastInstance observer = cluster.member(1);
            Job started = jobs.jobs(coordinator).start("fee-1", new JobSpec(JobType.FEE, FEE, 0, false));
            assertEquals(JobState.RUNNING, started.state());
            var jobMap = JobFeature.jobs(observer);
            await().atMost(Duration.ofMinutes(1)).until(() -> jobMap.get("fee-1").partitionsDone() >= 30);

            HazelcastInstance joined = cluster.addMember();
            jobs.on(joined);
            Job beforeCrash = jobMap.get("fee-1");
            assertEquals(JobState.RUNNING, beforeCrash.state(), "the job ended before the crash: slow it down");
            assertTrue(beforeCrash.partitionsDone() < 271);

            cluster.terminate(coordinator);
            jobs.stop(coordinator);

            await().atMost(Duration.ofMinutes(3)).until(() -> jobMap.get("fee-1").state() != JobState.RUNNING);
            Job job = jobMap.get("fee-1");
            assertEquals(JobState.COMPLETED, job.state(), String.valueOf(job.error()));
            assertEquals(271, job.partitionsDone());
            assertEquals(coordinatorId, started.coordinator());
            assertNotEquals(coordinatorId, job.coordinator(), "another member took the job over");

            long rejected = opening.stream().filter(open -> expectedBalance(open) == open.balance()).count();
            assertEquals(new JobTally(ACCOUNTS, ACCOUNTS - rejected, rejected, 0, (ACCOUNTS - rejected) * FEE, 0,
                    List.of()), job.tally());

            Map<String, Account> now = AccountFeature.accounts(observer).getAll(
                    opening.stream().map(TestAccount::id).collect(Collectors.toSet()));
            List<JournalEntry> journal = Ledgers.settledJournal(observer);
            List<JournalEntry> jobEntries = journal.stream()
                    .filter(entry -> entry.txId().equals(JobRules.txId("fee-1", started.run()))).toList();
            Map<String, JournalEntry> byAccount = jobEntries.stream()
                    .collect(Collectors.toMap(JournalEntry::accountId, Function.identity()));
            assertEquals(ACCOUNTS, jobEntries.size(), "one job entry per account");
            assertEquals(ACCOUNTS, byAccount.size());
            assertEquals(ACCOUNTS, journal.size(), "no other journal entries");
            for (TestAccount open : opening) {
                Account account = now.get(open.id());
                long expected = expectedBalance(open);
                assertEquals(expected, account.balance(), "balance of " + open.id());
                assertEquals(1, account.version(), "one movement recorded on " + open.id());
                assertEquals(List.of(started.runKey()), account.jobs());
                JournalEntry entry = byAccount.get(open.id());
                assertEquals(TxType.FEE, entry.type());
                assertEquals(expected == open.balance() ? TxStatus.REJECTED : TxStatus.APPLIED, entry.status());
                assertEquals(expected, entry.balanceAfter());
                assertEquals("fee-1", entry.ref());
            }
            assertEquals(null, JobFeature.jobGuards(observer).get(JobType.FEE.name()), "the type's guard was released");
        }
    }
}
