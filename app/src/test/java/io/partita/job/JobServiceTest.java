package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IndeterminateOperationStateException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Starting a job when storing it goes wrong half-way: the record is written but the answer is lost, or the backup
 * does not confirm. The job must still be driven to its end (not stay RUNNING for ever, holding its type's guard),
 * and be reported started; a store that did not land leaves nothing behind. One real member; the {@code jobs} map is
 * seen through a view whose store of a new job ({@link StartJob}) misbehaves after (or instead of) the real write.
 */
class JobServiceTest {

    private static final int ACCOUNTS = 20;

    private static TestCluster cluster;
    private static JobMembers jobs;
    private static HazelcastInstance member;
    private static final List<String> accountIds = new ArrayList<>();

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(1);
        jobs = new JobMembers(JobMembers.settings(64, Duration.ZERO));
        member = cluster.member(0);
        jobs.on(member);
        List<TestAccount> opening = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            opening.add(new TestAccount("svc-" + i, 1_000, 0));
            accountIds.add("svc-" + i);
        }
        JobMembers.open(member, opening);
    }

    @AfterAll
    static void stop() {
        jobs.close();
        cluster.close();
    }

    /** Stores a new job as the node does, except that it runs {@code instead} (given the real store and the store). */
    private static JobService.StartStore jobsWhoseStart(BiFunction<JobService.StartStore, Store, Job> instead) {
        JobService.StartStore real = JobService.durableStarts(member);
        return (id, start) -> instead.apply(real, new Store(id, start));
    }

    /** A store of a new job under {@code id}, as the service sent it. */
    private record Store(String id, StartJob processor) {
        Job on(JobService.StartStore real) {
            return real.store(id, processor);
        }
    }

    private static JobService serviceOver(JobService.StartStore starts) {
        return new JobService(member, jobs.on(member).runner(), starts);
    }

    private static Job awaitFinished(String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> !JobFeature.jobs(member).get(id).running());
        return JobFeature.jobs(member).get(id);
    }

    private static double counted(String name, String... tags) {
        SimpleMeterRegistry meters = jobs.on(member).meters();
        var counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void shouldDriveAndReportStartedAJobWhoseStoredRecordsAnswerWasLost() {
        String id = "lost-" + UUID.randomUUID();
        // The write lands; its answer is lost, and the retried write finds the record the first one left.
        JobService service = serviceOver(jobsWhoseStart((real, store) -> {
            store.on(real);
            return store.on(real);
        }));
        double finishedBefore = counted("partita.jobs.finished", "type", "AUDIT", "outcome", "completed");

        JobService.Attempt attempt = service.tryStart(id, new JobSpec(JobType.AUDIT, 0, 0, false), null);

        assertEquals(JobService.Outcome.STARTED, attempt.outcome());
        Job done = awaitFinished(id);
        assertEquals(JobState.COMPLETED, done.state());
        assertEquals(271, done.partitionsDone());
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFeature.jobGuards(member).get("AUDIT") == null);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                counted("partita.jobs.finished", "type", "AUDIT", "outcome", "completed") == finishedBefore + 1);
    }

    @Test
    void shouldDriveAndReportStartedAJobWhoseBackupDidNotConfirmInTime() {
        String id = "unconfirmed-" + UUID.randomUUID();
        JobService service = serviceOver(jobsWhoseStart((real, store) -> {
            store.on(real);
            throw new IndeterminateOperationStateException("the backup did not confirm in time");
        }));

        JobService.Attempt attempt = service.tryStart(id, new JobSpec(JobType.FEE, 10, 0, false), null);

        assertEquals(JobService.Outcome.STARTED, attempt.outcome());
        Job done = awaitFinished(id);
        assertEquals(JobState.COMPLETED, done.state());
        assertEquals(ACCOUNTS, done.tally().applied(), "charged once each: " + done.tally());
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFeature.jobGuards(member).get("FEE") == null);
        Job next = jobs.jobs(member).start(null, new JobSpec(JobType.FEE, 10, 0, false));
        assertEquals(JobState.COMPLETED, awaitFinished(next.id()).state(), "a later job of the type runs");
    }

    @Test
    void shouldLeaveNoJobAndNoGuardWhenTheStoreFailedBeforeItLanded() {
        String id = "failed-" + UUID.randomUUID();
        IndeterminateOperationStateException failure = new IndeterminateOperationStateException("no member answered");
        JobService service = serviceOver(jobsWhoseStart((real, store) -> {
            throw failure;
        }));

        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> service.tryStart(id, new JobSpec(JobType.INTEREST, 0, 5, false), null));

        assertSame(failure, thrown);
        assertNull(JobFeature.jobs(member).get(id));
        assertNull(JobFeature.jobGuards(member).get("INTEREST"));
    }
}
