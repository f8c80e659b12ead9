package io.partita.schedule;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.TestAccess;
import io.partita.job.Job;
import io.partita.job.JobFeature;
import io.partita.job.JobMembers;
import io.partita.job.JobService;
import io.partita.job.JobSpec;
import io.partita.job.JobState;
import io.partita.job.JobType;
import io.partita.lease.LeaseTestAccess;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs, schedules and lease groups on disk ({@code partita.durability=flush}): two members that crash at once while a
 * schedule fires every second, and start again from their data directories, bring back the schedule with its record of
 * firings, which then goes on firing; the jobs it had started, those still running at the crash adopted and finished
 * (every account charged exactly once per firing that ran); a finished job with its result, its id still taken; and a
 * lease group without its workers, whose next grants are above every fencing token handed out before.
 */
class DurableRecordsTest {

    /** Accounts anywhere, and a few more in one partition, which a job's slices of one account go through slowly. */
    private static final int SPREAD = 20;
    private static final int CROWDED = 3;
    private static final String CROWDED_KEY = "c-0";
    private static final long OPENING = 1_000_000;
    private static final String SCHEDULE = "every-second";
    private static final String GROUP = "mailers";
    private static final long LEASE = 60_000;

    @TempDir
    Path dataDir;
    /** The cluster's name, the same at each start: a member's data belongs to its cluster. */
    private final String clusterName = "durable-records-" + UUID.randomUUID();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldBringBackJobsSchedulesAndLeaseGroupsAfterEveryMemberCrashed() {
        List<String> accounts;
        Job audit;
        Schedule scheduleBefore;
        LeaseTestAccess.Lease firstWorker;
        Map<Integer, Long> tokensBefore = new HashMap<>();
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1");
             JobMembers jobs = slowJobs();
             ScheduleTriggers triggers = new ScheduleTriggers(jobs)) {
            HazelcastInstance member = cluster.member(0);
            accounts = open(cluster);
            String auditId = jobs.on(member).jobs().tryStart("audit-before",
                    new JobSpec(JobType.AUDIT, 0, 0, true), null).job().id();
            await().atMost(Duration.ofSeconds(30)).until(() -> !JobFeature.jobs(member).get(auditId).running());
            audit = JobFeature.jobs(member).get(auditId);

            assertTrue(LeaseTestAccess.create(member, GROUP, 8, LEASE));
            firstWorker = LeaseTestAccess.join(member, GROUP, "host-a");
            LeaseTestAccess.Lease secondWorker = LeaseTestAccess.join(member, GROUP, "host-b");
            // The first worker's renewal lets go of the shards moving to the second, which its renewal then lists.
            tokensBefore.putAll(LeaseTestAccess.renew(member, GROUP, firstWorker.workerId()).orElseThrow().tokens());
            tokensBefore.putAll(LeaseTestAccess.renew(member, GROUP, secondWorker.workerId()).orElseThrow().tokens());
            assertEquals(8, tokensBefore.size(), "the two workers hold every shard: " + tokensBefore);

            new ScheduleService(member).put(SCHEDULE, "* * * * * *", new JobSpec(JobType.FEE, 1, 0, true));
            cluster.members().forEach(triggers::on);
            // The crash comes while a firing's job is half-way: some partitions done, the crowded one not yet.
            IMap<String, Job> jobMap = JobFeature.jobs(member);
            int crowded = member.getPartitionService().getPartition(CROWDED_KEY).getPartitionId();
            await().atMost(Duration.ofSeconds(30)).until(() -> runningMidWay(jobMap, crowded));
            scheduleBefore = ScheduleFeature.schedules(member).get(SCHEDULE);
            cluster.crashAll();
        }

        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1");
             JobMembers jobs = slowJobs();
             ScheduleTriggers triggers = new ScheduleTriggers(jobs)) {
            cluster.awaitRecovered();
            HazelcastInstance member = cluster.member(0);
            IMap<String, Job> jobMap = JobFeature.jobs(member);
            Collection<Job> runningAtCrash = jobMap.values(Predicates.equal("state", JobState.RUNNING.name()));
            assertTrue(runningAtCrash.stream().anyMatch(job -> SCHEDULE.equals(job.schedule())),
                    "a firing's job was running at the crash: " + runningAtCrash);

            assertEquals(Optional.of(new LeaseTestAccess.Group(8, LEASE, 0)), LeaseTestAccess.find(member, GROUP),
                    "the group is back, without its workers");
            assertEquals(Optional.empty(), LeaseTestAccess.renew(member, GROUP, firstWorker.workerId()),
                    "a worker from before the crash must join again");
            LeaseTestAccess.Lease rejoined = LeaseTestAccess.join(member, GROUP, "host-a-again");
            assertEquals("w3", rejoined.workerId(), "a new worker's id was never a worker's before");
            assertEquals(8, rejoined.tokens().size());
            rejoined.tokens().forEach((shard, token) -> assertTrue(token > tokensBefore.get(shard),
                    "shard " + shard + " is granted above its token before the crash, " + tokensBefore.get(shard)));

            JobService service = jobs.on(member).jobs();
            assertEquals(audit, service.find(audit.id()).orElseThrow(), "a finished job is back with its result");
            assertEquals(JobService.Outcome.EXISTS,
                    service.tryStart(audit.id(), new JobSpec(JobType.AUDIT, 0, 0, true), null).outcome(),
                    "its id is still taken");

            IMap<String, Schedule> schedules = ScheduleFeature.schedules(member);
            Schedule recovered = schedules.get(SCHEDULE);
            assertEquals(scheduleBefore.createdAt(), recovered.createdAt());
            assertTrue(recovered.firings() >= scheduleBefore.firings(), "its firings: " + recovered);

            cluster.members().forEach(triggers::on);
            await().atMost(Duration.ofSeconds(30)).until(() -> schedules.get(SCHEDULE).firings()
                    >= recovered.firings() + 2);
            triggers.stopAll();
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    jobMap.values(Predicates.equal("schedule", SCHEDULE)).stream().noneMatch(Job::running));

            for (Job running : runningAtCrash) {
                Job adopted = jobMap.get(running.id());
                assertEquals(running.run(), adopted.run(), "the run under way at the crash went on: " + adopted);
                assertEquals(JobState.COMPLETED, adopted.state(), adopted.id());
            }
            Collection<Job> runs = jobMap.values(Predicates.equal("schedule", SCHEDULE));
            Schedule schedule = schedules.get(SCHEDULE);
            assertEquals(schedule.firings(), runs.size(), "one run per firing: " + schedule);
            for (Job run : runs) {
                assertEquals(JobState.COMPLETED, run.state(), run.id());
                assertEquals(accounts.size(), run.tally().applied(), run.id() + ": " + run.tally());
            }
            Map<String, Account> balances = AccountFeature.accounts(member).getAll(new HashSet<>(accounts));
            for (String id : accounts) {
                assertEquals(OPENING - runs.size(), balances.get(id).balance(), "charged once per run: " + id);
            }
        }
    }

    /** Ticks fast; a job pauses for a second between two accounts of one partition. */
    private static JobMembers slowJobs() {
        return new JobMembers(JobMembers.settings(1, Duration.ofSeconds(1)));
    }

    /** Opens the accounts through the ledger, as {@code POST /accounts} does, so that they are on disk. */
    private static List<String> open(TestCluster cluster) {
        HazelcastInstance member = cluster.member(0);
        AccountService service = TestAccess.Services.on(member, cluster.properties(0)).accounts();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < SPREAD; i++) {
            ids.add("d-" + i);
        }
        int crowded = service.partitionOf(CROWDED_KEY);
        for (int i = 0; ids.size() < SPREAD + CROWDED; i++) {
            if (service.partitionOf("c-" + i) == crowded) {
                ids.add("c-" + i);
            }
        }
        ids.forEach(id -> service.open(id, OPENING, 0).toCompletableFuture().join());
        return ids;
    }

    /** Whether a job of the schedule has some partitions done, and not the crowded one. */
    private static boolean runningMidWay(IMap<String, Job> jobs, int crowded) {
        return jobs.values(Predicates.and(Predicates.equal("schedule", SCHEDULE),
                        Predicates.equal("state", JobState.RUNNING.name()))).stream()
                .anyMatch(job -> job.partitionsDone() > 0 && !job.done().get(crowded));
    }
}
