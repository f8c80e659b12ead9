package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.query.Predicates;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.job.Job;
import io.partita.job.JobFeature;
import io.partita.job.JobMembers;
import io.partita.job.JobSpec;
import io.partita.job.JobState;
import io.partita.job.JobType;
import io.partita.job.TestAccount;
import io.partita.support.Ledgers;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A schedule firing every second on 3 members runs its job once per firing, not once per member, and goes on firing
 * after the member that owned it crashes. Each firing charges every account 1, so the balances count the runs too.
 */
class ScheduleClusterTest {

    private static final int ACCOUNTS = 50;
    private static final long OPENING = 1_000_000;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRunEachFiringOnceAcrossTheClusterAndSurviveTheLossOfTheTriggeringMember() {
        try (TestCluster cluster = TestCluster.start(3);
             JobMembers jobs = new JobMembers(JobMembers.settings(64, Duration.ZERO));
             ScheduleTriggers triggers = new ScheduleTriggers(jobs)) {
            cluster.members().forEach(triggers::on);
            HazelcastInstance member = cluster.member(0);
            List<TestAccount> opening = new ArrayList<>();
            for (int i = 0; i < ACCOUNTS; i++) {
                opening.add(new TestAccount("s-" + i, OPENING, 0));
            }
            JobMembers.open(member, opening);

            new ScheduleService(member).put("every-second", "* * * * * *",
                    new JobSpec(JobType.FEE, 1, 0, true));
            var schedules = ScheduleFeature.schedules(member);
            await().atMost(Duration.ofSeconds(30)).until(() -> schedules.get("every-second").firings() >= 3);

            HazelcastInstance owner = cluster.members().stream()
                    .filter(m -> m.getPartitionService().getPartition("every-second").getOwner().localMember())
                    .findFirst().orElseThrow();
            long firingsBeforeCrash = schedules.get("every-second").firings();
            cluster.terminate(owner);
            long startedByOwner = triggers.stop(owner);
            HazelcastInstance survivor = cluster.member(0);
            var survivingSchedules = ScheduleFeature.schedules(survivor);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> survivingSchedules.get("every-second").firings() >= firingsBeforeCrash + 3);

            long startedBySurvivors = triggers.stopAll();
            Schedule schedule = survivingSchedules.get("every-second");
            var jobMap = JobFeature.jobs(survivor);
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    jobMap.values(Predicates.equal("schedule", "every-second")).stream().noneMatch(Job::running));
            Collection<Job> runs = jobMap.values(Predicates.equal("schedule", "every-second"));

            assertEquals(schedule.firings(), runs.size(), "one run per firing: " + schedule);
            assertEquals(runs.size(), startedByOwner + startedBySurvivors,
                    "each run was started by exactly one trigger");
            assertTrue(startedByOwner > 0 && startedBySurvivors > 0, "both the owner and its successor fired");
            assertTrue(runs.stream().allMatch(job -> job.state() == JobState.COMPLETED));
            Set<String> ids = runs.stream().map(Job::id).collect(Collectors.toSet());
            assertEquals(schedule.lastJobId(), ids.stream().max(String::compareTo).orElseThrow());
            Map<String, Account> now = AccountFeature.accounts(survivor).getAll(
                    opening.stream().map(TestAccount::id).collect(Collectors.toSet()));
            Collection<JournalEntry> entries = Ledgers.settledJournal(survivor);
            for (TestAccount open : opening) {
                Account account = now.get(open.id());
                assertEquals(OPENING - runs.size(), account.balance(), "charged once per run: " + open.id());
                assertEquals(runs.size(), entries.stream().filter(e -> e.accountId().equals(open.id())).count());
            }
            assertTrue(schedule.missed() <= 5, "a failover misses a few seconds at most: " + schedule);
        }
    }
}
