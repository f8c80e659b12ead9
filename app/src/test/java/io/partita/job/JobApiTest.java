package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.Tail;
import io.partita.node.ClusterClock;
import io.partita.schedule.Schedule;
import io.partita.support.Api;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.partita.support.Problems.assertProblem;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job and schedule API (app/README.md, "Jobs and schedules") on a one-node cluster: every endpoint, and every class
 * of bad input. Jobs go one account per slice with a pause between slices, so that a partition holding many accounts
 * keeps a real job RUNNING for a few seconds (accounts spread one per partition are not slowed).
 */
@MicronautTest
@Property(name = "partita.jobs.slice-size", value = "1")
@Property(name = "partita.jobs.slice-pause", value = "150ms")
class JobApiTest {

    /** Accounts in one partition that hold a job RUNNING for about this many slice pauses. */
    private static final int SLOW_ACCOUNTS = 25;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    Api api;

    String suffix;

    @BeforeEach
    void setUp() {
        suffix = Api.uniqueId("");
    }

    private String openAccount(long balance) {
        String id = "acc-" + suffix + "-" + balance;
        Api.Reply opened = api.post("/accounts", "{\"id\":\"" + id + "\",\"balance\":" + balance + "}");
        assertEquals(201, opened.status(), opened.toString());
        return id;
    }

    private Api.Reply awaitFinished(String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> !"RUNNING".equals(api.get("/jobs/" + id).text("state")));
        return api.get("/jobs/" + id);
    }

    @Test
    void shouldStartAFeeJobAndFollowItUntilEveryPartitionIsDone() {
        String rich = openAccount(1_000);
        String poor = openAccount(5);

        Api.Reply started = api.post("/jobs", "{\"type\":\"FEE\",\"amount\":10,\"concurrent\":true}");

        assertEquals(202, started.status(), started.toString());
        String id = started.text("id");
        assertTrue(id.startsWith("job-"), id);
        assertEquals("/jobs/" + id, started.headers().get("Location"));
        assertEquals("FEE", started.text("type"));
        assertEquals("RUNNING", started.text("state"));
        assertEquals(271, started.number("partitionsTotal"));
        assertEquals(10, started.number("amount"));
        assertTrue(started.map().containsKey("finishedAt"));
        assertNull(started.map().get("finishedAt"));

        Api.Reply done = awaitFinished(id);
        assertEquals("COMPLETED", done.text("state"), done.toString());
        assertEquals(271, done.number("partitionsDone"));
        assertTrue(done.number("accountsProcessed") >= 2);
        assertEquals(done.number("accountsProcessed"),
                done.number("applied") + done.number("rejected") + done.number("skipped"), done.toString());
        assertEquals(done.number("applied") * 10, done.number("charged"));
        assertTrue(Instant.parse(done.text("finishedAt")).compareTo(Instant.parse(done.text("startedAt"))) >= 0);
        assertFalse(done.map().containsKey("mismatches"));

        assertEquals(990, api.get("/accounts/" + rich).number("balance"));
        assertEquals(5, api.get("/accounts/" + poor).number("balance"));
        Api.Reply journal = api.get("/accounts/" + poor + "/transactions");
        assertTrue(((String) journal.list().get(0).get("txId")).startsWith("job/" + id + "/"), journal.toString());
        assertEquals("FEE", journal.list().get(0).get("type"));
        assertEquals("REJECTED", journal.list().get(0).get("status"));
    }

    @Test
    void shouldPayInterestAndShowWhatWasSkipped() {
        String account = openAccount(1_400);
        openAccount(0);

        Api.Reply started = api.post("/jobs", "{\"type\":\"INTEREST\",\"rateBasisPoints\":25,\"concurrent\":true}");
        assertEquals(202, started.status(), started.toString());
        assertEquals(25, started.number("rateBasisPoints"));

        Api.Reply done = awaitFinished(started.text("id"));
        assertEquals("COMPLETED", done.text("state"));
        assertTrue(done.number("skipped") >= 1);
        assertTrue(done.number("paid") >= 4);
        assertEquals(1_404, api.get("/accounts/" + account).number("balance"));
    }

    @Test
    void shouldReportTheAccountsAnAuditFindsOutOfBalance() {
        String planted = openAccount(300);
        Account account = AccountFeature.accounts(hazelcast).get(planted);
        AccountFeature.accounts(hazelcast).set(planted, new Account(301, 0, 0, 0, account.openingBalance(), Tail.EMPTY,
                List.of(), 0));
        try {
            Api.Reply done = awaitFinished(api.post("/jobs", "{\"type\":\"AUDIT\",\"concurrent\":true}").text("id"));

            assertEquals("COMPLETED", done.text("state"));
            assertEquals(1, done.number("mismatches"), done.toString());
            assertEquals(List.of(planted), done.map().get("mismatchIds"));
            assertFalse(done.map().containsKey("applied"));
        } finally {
            AccountFeature.accounts(hazelcast).set(planted, account);
        }
    }

    @Test
    void shouldAnswer409WhenTheJobIdExists() {
        String id = "audit-" + suffix;
        assertEquals(202, api.post("/jobs", "{\"id\":\"" + id + "\",\"type\":\"AUDIT\",\"concurrent\":true}").status());

        Api.Reply again = api.post("/jobs", "{\"id\":\"" + id + "\",\"type\":\"AUDIT\",\"concurrent\":true}");

        assertProblem(again, 409, null);
        assertTrue(again.text("type").endsWith("/job-exists"), again.toString());
        awaitFinished(id);
    }

    /** Opens {@code count} accounts that share one partition, so that a job spends count slices on it. */
    private List<String> openAccountsInOnePartition(int count) {
        List<String> ids = new ArrayList<>();
        int partition = hazelcast.getPartitionService().getPartition("slow-" + suffix + "-0").getPartitionId();
        for (int n = 0; ids.size() < count; n++) {
            String id = "slow-" + suffix + "-" + n;
            if (hazelcast.getPartitionService().getPartition(id).getPartitionId() == partition) {
                assertEquals(201, api.post("/accounts", "{\"id\":\"" + id + "\",\"balance\":100}").status());
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void shouldRefuseASecondJobOfARunningTypeUnlessAskedToRunConcurrently() {
        // A real FEE job held RUNNING for a few seconds by a partition of SLOW_ACCOUNTS accounts.
        List<String> slow = openAccountsInOnePartition(SLOW_ACCOUNTS);
        String blocker = "blocker-" + suffix;
        try {
            assertEquals(202, api.post("/jobs", "{\"id\":\"" + blocker + "\",\"type\":\"FEE\",\"amount\":1}")
                    .status());
            Api.Reply refused = api.post("/jobs", "{\"type\":\"FEE\",\"amount\":5}");
            assertEquals("RUNNING", api.get("/jobs/" + blocker).text("state"), "the blocker ended too soon");
            assertProblem(refused, 409, null);
            assertTrue(refused.text("type").endsWith("/job-running"), refused.toString());
            assertTrue(refused.text("detail").contains(blocker), refused.toString());
            assertTrue(JobFeature.jobGuards(hazelcast).get("FEE").startsWith(blocker + "/"),
                    "the refused job left the blocker's guard in place");

            Api.Reply concurrent = api.post("/jobs", "{\"type\":\"FEE\",\"amount\":5,\"concurrent\":true}");
            assertEquals(202, concurrent.status(), concurrent.toString());
            assertEquals("COMPLETED", awaitFinished(concurrent.text("id")).text("state"));
            assertEquals("COMPLETED", awaitFinished(blocker).text("state"));
        } finally {
            // Later tests' jobs need not wait on this partition.
            slow.forEach(AccountFeature.accounts(hazelcast)::delete);
        }
        Api.Reply afterwards = api.post("/jobs", "{\"type\":\"FEE\",\"amount\":5}");
        assertEquals(202, afterwards.status(), afterwards.toString());
        assertEquals("COMPLETED", awaitFinished(afterwards.text("id")).text("state"));
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFeature.jobGuards(hazelcast).get("FEE") == null);
    }

    @Test
    void shouldChargeAFeeOnAnAccountWhoseClientUsedATxIdShapedLikeTheJobs() {
        String account = openAccount(1_000);
        String id = "fee-" + suffix;
        // Before job txIds had their own namespace, this was the job's txId on the account.
        Api.Reply credit = api.post("/accounts/" + account + "/transactions",
                "{\"txId\":\"job:" + id + "\",\"type\":\"CREDIT\",\"amount\":5}");
        assertEquals(200, credit.status(), credit.toString());

        Api.Reply done = awaitFinished(api.post("/jobs",
                "{\"id\":\"" + id + "\",\"type\":\"FEE\",\"amount\":10,\"concurrent\":true}").text("id"));

        assertEquals("COMPLETED", done.text("state"), done.toString());
        assertEquals(995, api.get("/accounts/" + account).number("balance"));
        Map<String, Object> fee = api.get("/accounts/" + account + "/transactions").list().get(0);
        assertEquals("FEE", fee.get("type"));
        assertEquals("APPLIED", fee.get("status"));
        assertEquals(done.number("applied") * 10, done.number("charged"));
    }

    @Test
    void shouldChargeAgainWhenAJobIdIsReusedAfterTheFinishedJobExpired() {
        String account = openAccount(1_000);
        String id = "reused-" + suffix;
        String body = "{\"id\":\"" + id + "\",\"type\":\"FEE\",\"amount\":10,\"concurrent\":true}";
        assertEquals("COMPLETED", awaitFinished(api.post("/jobs", body).text("id")).text("state"));
        assertEquals(990, api.get("/accounts/" + account).number("balance"));
        JobFeature.jobs(hazelcast).delete(id);   // as partita.jobs.retention would, once it passed

        Api.Reply again = api.post("/jobs", body);
        assertEquals(202, again.status(), again.toString());
        Api.Reply done = awaitFinished(id);

        assertEquals("COMPLETED", done.text("state"), done.toString());
        assertEquals(980, api.get("/accounts/" + account).number("balance"), "the second job charged too");
        assertEquals(done.number("accountsProcessed"), done.number("applied") + done.number("rejected"),
                done.toString());
        List<Map<String, Object>> journal = api.get("/accounts/" + account + "/transactions").list();
        assertEquals(2, journal.stream().filter(entry -> "FEE".equals(entry.get("type"))).count(), journal.toString());
    }

    @Test
    void shouldDriveARunningJobThatThisNodeCoordinatesButNeverTookOn() {
        // What a start leaves behind when the job's record was written but its answer was lost: RUNNING, coordinated
        // by this (live) member, which never began sending its tasks.
        String id = "orphan-" + suffix;
        String self = hazelcast.getCluster().getLocalMember().getUuid().toString();
        JobFeature.jobs(hazelcast).set(id, Job.start(id, "r1", new JobSpec(JobType.AUDIT, 0, 0, true), null,
                System.currentTimeMillis(), self));

        Api.Reply done = awaitFinished(id);

        assertEquals("COMPLETED", done.text("state"), done.toString());
        assertEquals(271, done.number("partitionsDone"));
    }

    @Test
    void shouldListRecentJobsNewestFirst() {
        String first = "list-a-" + suffix;
        String second = "list-b-" + suffix;
        assertEquals(202, api.post("/jobs", "{\"id\":\"" + first + "\",\"type\":\"AUDIT\",\"concurrent\":true}")
                .status());
        awaitFinished(first);
        assertEquals(202, api.post("/jobs", "{\"id\":\"" + second + "\",\"type\":\"AUDIT\",\"concurrent\":true}")
                .status());
        awaitFinished(second);

        List<Object> ids = api.get("/jobs").list().stream().map(job -> job.get("id")).toList();
        assertTrue(ids.indexOf(second) >= 0 && ids.indexOf(second) < ids.indexOf(first), ids.toString());
        assertEquals(1, api.get("/jobs?limit=1").list().size());
        assertProblem(api.get("/jobs?limit=0"), 400, "limit");
        // Past the most a listing returns: served as that most, as an account's journal is, not refused.
        assertEquals(200, api.get("/jobs?limit=1001").status());
        assertTrue(api.get("/jobs?limit=100000").list().size() <= 1000);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"amount":10}                                  | type
            {"type":"BOGUS"}                               | type
            {"type":"FEE"}                                 | amount
            {"type":"FEE","amount":1.5}                    | amount
            {"type":"FEE","amount":0}                      | amount
            {"type":"FEE","amount":-5}                     | amount
            {"type":"FEE","amount":10000000000000000}      | amount
            {"type":"FEE","amount":10,"rateBasisPoints":5} | rateBasisPoints
            {"type":"INTEREST"}                            | rateBasisPoints
            {"type":"INTEREST","rateBasisPoints":10001}    | rateBasisPoints
            {"type":"INTEREST","rateBasisPoints":2.5}      | rateBasisPoints
            {"type":"INTEREST","rateBasisPoints":0}        | rateBasisPoints
            {"type":"AUDIT","amount":5}                    | amount
            {"type":"AUDIT","id":"bad id!"}                | id
            {"type":"AUDIT","id":""}                       | id
            {"type":"FEE","amount":"10"}                   | amount
            {"type":"FEE","amount":true}                   | amount
            {"type":"INTEREST","rateBasisPoints":"25"}     | rateBasisPoints
            {"type":["AUDIT"]}                             | type
            {"type":"AUDIT","id":42}                       | id
            {"type":"AUDIT","concurrent":"true"}           | concurrent
            {"type":"AUDIT","concurrent":"yes"}            | concurrent
            {"type":"AUDIT","concurrent":1}                | concurrent
            {"type":"AUDIT","concurrent":[true]}           | concurrent
            """)
    void shouldRefuseABadJobWithAFieldErrorAndStartNothing(String body, String field) {
        int before = api.get("/jobs?limit=1000").list().size();

        assertProblem(api.post("/jobs", body), 400, field);

        assertEquals(before, api.get("/jobs?limit=1000").list().size());
    }

    @Test
    void shouldAnswerUnreadableAndUnknownJobsWithProblems() {
        assertProblem(api.post("/jobs", "{\"type\":"), 400, null);
        assertProblem(api.get("/jobs/no-such-job"), 404, null);
        assertProblem(api.get("/jobs/bad!id"), 400, "id");
    }

    @Test
    void shouldCreateReadReplaceAndDeleteASchedule() {
        String name = "yearly-" + suffix;

        Api.Reply created = api.put("/schedules/" + name, "{\"cron\":\"0 0 1 1 *\",\"job\":{\"type\":\"AUDIT\"}}");

        assertEquals(200, created.status(), created.toString());
        assertEquals(name, created.text("name"));
        assertEquals("0 0 1 1 *", created.text("cron"));
        @SuppressWarnings("unchecked")
        Map<String, Object> job = (Map<String, Object>) created.map().get("job");
        assertEquals("AUDIT", job.get("type"));
        Instant next = Instant.parse(created.text("nextFireAt"));
        assertTrue(next.toString().matches("\\d{4}-01-01T00:00:00Z"), next.toString());
        assertEquals(0, created.number("firings"));
        assertTrue(api.get("/schedules").list().stream().anyMatch(s -> name.equals(s.get("name"))));
        assertEquals(name, api.get("/schedules/" + name).text("name"));

        // The same definition again changes nothing: not its record, not its next firing.
        Api.Reply again = api.put("/schedules/" + name, "{\"cron\":\"0 0 1 1 *\",\"job\":{\"type\":\"AUDIT\"}}");
        assertEquals(200, again.status(), again.toString());
        assertEquals(created.text("createdAt"), again.text("createdAt"), again.toString());
        assertEquals(created.text("createdAt"), api.get("/schedules/" + name).text("createdAt"));

        Api.Reply replaced = api.put("/schedules/" + name,
                "{\"cron\":\"0 30 2 * * MON-FRI\",\"job\":{\"type\":\"FEE\",\"amount\":3}}");
        assertEquals(200, replaced.status(), replaced.toString());
        assertEquals("0 30 2 * * MON-FRI", api.get("/schedules/" + name).text("cron"));
        assertNotNull(replaced.text("createdAt"), replaced.toString());

        Api.Reply deleted = api.delete("/schedules/" + name);
        assertEquals(204, deleted.status());
        assertProblem(api.delete("/schedules/" + name), 404, null);
        assertProblem(api.get("/schedules/" + name), 404, null);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"cron":"bogus","job":{"type":"AUDIT"}}                | cron
            {"cron":"61 * * * *","job":{"type":"AUDIT"}}           | cron
            {"cron":"* * * *","job":{"type":"AUDIT"}}              | cron
            {"cron":"0 0 30 2 *","job":{"type":"AUDIT"}}           | cron
            {"cron":"*/0 * * * *","job":{"type":"AUDIT"}}          | cron
            {"cron":"0 */0 * * * *","job":{"type":"AUDIT"}}        | cron
            {"cron":"5/00 * * * *","job":{"type":"AUDIT"}}         | cron
            {"cron":"0 0 * * L","job":{"type":"AUDIT"}}            | cron
            {"cron":"0 0 * * ?#2","job":{"type":"AUDIT"}}          | cron
            {"cron":"0 0 * * L/2","job":{"type":"AUDIT"}}          | cron
            {"cron":"0 0 * * L#1","job":{"type":"AUDIT"}}          | cron
            {"cron":"0 0 * * 0#6","job":{"type":"AUDIT"}}          | cron
            {"cron":"","job":{"type":"AUDIT"}}                     | cron
            {"job":{"type":"AUDIT"}}                               | cron
            {"cron":"0 0 * * *"}                                   | job
            {"cron":"0 0 * * *","job":{"type":"NOPE"}}             | job.type
            {"cron":"0 0 * * *","job":{"type":"FEE"}}              | job.amount
            {"cron":"0 0 * * *","job":{"type":"FEE","amount":0.5}} | job.amount
            {"cron":"0 0 * * *","job":{"type":"AUDIT","id":"x"}}   | job.id
            {"cron":"0 0 * * *","job":{"type":"FEE","amount":"3"}} | job.amount
            {"cron":5,"job":{"type":"AUDIT"}}                      | cron
            {"cron":"0 0 * * *","job":{"type":"AUDIT","concurrent":"yes"}} | job.concurrent
            """)
    void shouldRefuseABadScheduleWithAFieldErrorAndStoreNothing(String body, String field) {
        String name = "bad-" + suffix;

        assertProblem(api.put("/schedules/" + name, body), 400, field);

        assertProblem(api.get("/schedules/" + name), 404, null);
    }

    @Test
    void shouldRefuseACronLongerThan200CharactersEvenWhenItWouldParse() {
        String name = "long-" + suffix;
        String cron = "0 0 1 1" + " ".repeat(200) + "*";

        assertProblem(api.put("/schedules/" + name, "{\"cron\":\"" + cron + "\",\"job\":{\"type\":\"AUDIT\"}}"),
                400, "cron");

        assertProblem(api.get("/schedules/" + name), 404, null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"1-0 * * * *", "0 0 * * 0#6", "*/0 * * * *", "0 0 * * L"})
    void shouldNameTheCronButNotTheParsersInternalsWhenRefusingIt(String cron) {
        Api.Reply refused = api.put("/schedules/bad-" + suffix, "{\"cron\":\"" + cron
                + "\",\"job\":{\"type\":\"AUDIT\"}}");

        assertProblem(refused, 400, "cron");
        @SuppressWarnings("unchecked")
        String message = (String) ((List<Map<String, Object>>) refused.map().get("errors")).get(0).get("message");
        assertTrue(message.contains("'" + cron + "'"), message);
        for (String internal : List.of("Rolling", "limit", "interval", "null", "zero", "part.")) {
            assertFalse(message.contains(internal), message);
        }
    }

    @Test
    void shouldCountAFiringWhoseIdAClientJobTookAsMissedNotAsRun() {
        String name = "taken-" + suffix;
        // One firing, a few seconds from now (and next year); its job id is taken by a client's job first.
        ZonedDateTime at = ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(4).withNano(0);
        String cron = at.getSecond() + " " + at.getMinute() + " " + at.getHour() + " " + at.getDayOfMonth() + " "
                + at.getMonthValue() + " *";
        String firingId = Schedule.firingJobId(name, at.toInstant().toEpochMilli());
        assertEquals(202, api.post("/jobs", "{\"id\":\"" + firingId + "\",\"type\":\"AUDIT\",\"concurrent\":true}")
                .status());
        assertEquals(200, api.put("/schedules/" + name, "{\"cron\":\"" + cron
                + "\",\"job\":{\"type\":\"AUDIT\",\"concurrent\":true}}").status());
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> api.get("/schedules/" + name).text("lastFiredAt") != null);
            Api.Reply schedule = api.get("/schedules/" + name);

            assertEquals(0, schedule.number("firings"), schedule.toString());
            assertEquals(1, schedule.number("missed"), schedule.toString());
            assertNull(schedule.text("lastJobId"), schedule.toString());
            assertTrue(schedule.text("lastNote").contains(firingId), schedule.toString());
            assertNull(api.get("/jobs/" + firingId).text("schedule"), "the client's job is still the client's");
        } finally {
            api.delete("/schedules/" + name);
        }
    }

    @Test
    void shouldRefuseAScheduleNameThatIsNotAnId() {
        assertProblem(api.put("/schedules/bad!name", "{\"cron\":\"0 0 * * *\",\"job\":{\"type\":\"AUDIT\"}}"),
                400, "name");
    }

    @Test
    void shouldFireAScheduleOnThisNodeAndStopWhenItIsDeleted() {
        String name = "each-second-" + suffix;
        assertEquals(200, api.put("/schedules/" + name,
                "{\"cron\":\"* * * * * *\",\"job\":{\"type\":\"AUDIT\",\"concurrent\":true}}").status());

        await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/schedules/" + name).number("firings") >= 2);
        String lastJob = api.get("/schedules/" + name).text("lastJobId");
        assertTrue(lastJob.startsWith(name + ":"), lastJob);
        assertEquals(name, api.get("/jobs/" + lastJob).text("schedule"));
        assertNotNull(api.get("/schedules/" + name).text("lastFiredAt"));

        assertEquals(204, api.delete("/schedules/" + name).status());
        // Firing times are the cluster's. A firing due by now may still be starting its job; none due later may.
        long deletedAt = ClusterClock.now(hazelcast);
        assertProblem(api.get("/schedules/" + name), 404, null);
        assertFalse(jobsOf(name).isEmpty(), "the schedule's jobs are listed");
        // The cron fires every second: a schedule still firing would start a job within any two of them.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6)).untilAsserted(() ->
                assertEquals(List.of(), jobsOf(name).stream()
                        .filter(id -> Long.parseLong(id.substring(id.lastIndexOf(':') + 1)) * 1000 > deletedAt)
                        .toList(), "jobs of firings after the delete"));
    }

    /** The ids of the listed jobs that schedule {@code name} fired. */
    private List<String> jobsOf(String name) {
        return api.get("/jobs?limit=1000").list().stream().filter(job -> name.equals(job.get("schedule")))
                .map(job -> (String) job.get("id")).toList();
    }
}
