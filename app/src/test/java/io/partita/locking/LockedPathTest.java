package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.node.ClusterClock;
import io.partita.refusal.Refusal;
import io.partita.support.TestCluster;
import io.partita.web.Refusals;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The locked path's bounds on one real member (CP in unsafe mode): a task that starts after its request's deadline
 * does nothing, a lock wait ends at the deadline even when the lock timeout is longer, and past its task limit the
 * path answers 503 at once. The executor is one the test runs by hand where the order of events matters.
 */
class LockedPathTest {


    private static TestCluster cluster;
    private static HazelcastInstance member;
    private static AccountLocks locks;
    private static final ExecutorService THREADS = Executors.newCachedThreadPool();

    /** Runs tasks only when the test says so: a blocking executor whose threads are all busy. */
    private static final class Queued implements Executor {
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                task.run();
            }
        }
    }

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(1);
        member = cluster.member(0);
        // Lock timeout 5 s (TestProperties).
        locks = new AccountLocks(member, cluster.properties(0));
    }

    @AfterAll
    static void stop() {
        THREADS.shutdownNow();
        cluster.close();
    }

    /** Now by the cluster's clock, which the node stamps requests with (the journal's retention judges by it). */
    private static long now() {
        return ClusterClock.now(member);
    }

    private static String open(long balance) {
        String id = "lp-" + UUID.randomUUID().toString().substring(0, 8);
        AccountFeature.accounts(member).set(id, Account.open(balance, 0));
        return id;
    }

    private static Refusal failure(CompletableFuture<?> future) {
        CompletionException failure = assertThrows(CompletionException.class, future::join);
        return (Refusal) failure.getCause();
    }

    @Test
    void shouldDoNothingWhenItsTaskStartsAfterTheDeadline() {
        String id = open(1_000);
        Queued executor = new Queued();
        LockedPath path = new LockedPath(member, locks, executor, Duration.ZERO, 10);

        CompletableFuture<TxOutcome> late = path.apply(id, TxRequest.of("t-1", TxType.DEBIT, 100, now()))
                .toCompletableFuture();
        executor.runAll();

        Refusal answer = failure(late);
        assertEquals(503, Refusals.status(answer));
        assertTrue(answer.getMessage().contains("nothing was changed"), answer.getMessage());
        assertFalse(locks.hasProxy(id), "the lock was not even looked up");
        assertEquals(1_000, AccountFeature.accounts(member).get(id).balance());
        assertEquals(0, path.tasksUnderWay());
    }

    @Test
    void shouldAnswer503AtOnceBeyondItsTaskLimitAndCountATaskUntilItEnds() {
        String id = open(1_000);
        Queued executor = new Queued();
        LockedPath path = new LockedPath(member, locks, executor, Duration.ofSeconds(30), 1);

        CompletableFuture<TxOutcome> queued = path.apply(id, TxRequest.of("t-1", TxType.DEBIT, 100, now()))
                .toCompletableFuture();
        CompletableFuture<TxOutcome> refused = path.apply(id, TxRequest.of("t-2", TxType.DEBIT, 100, now()))
                .toCompletableFuture();

        assertEquals(503, Refusals.status(failure(refused)));
        // The caller of the first may stop waiting; its task still counts until it has run.
        queued.orTimeout(1, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(5)).until(queued::isDone);
        assertEquals(1, path.tasksUnderWay());
        executor.runAll();
        assertEquals(0, path.tasksUnderWay());
        assertEquals(900, AccountFeature.accounts(member).get(id).balance());
        CompletableFuture<TxOutcome> next = path.apply(id, TxRequest.of("t-2", TxType.DEBIT, 100, now()))
                .toCompletableFuture();
        executor.runAll();
        assertEquals(800, next.join().entry().balanceAfter());
    }

    @Test
    void shouldStopWaitingForALockAtTheDeadlineAndWriteNothingAfterIt() {
        String id = open(1_000);
        LockedPath path = new LockedPath(member, locks, THREADS, Duration.ofSeconds(1), 10);
        CompletableFuture<TxOutcome> waiting;
        long started;
        try (Held held = locks.lock(id)) {
            assertTrue(held.fence(id) > 0, "the test holds the account's lock");
            started = System.nanoTime();
            waiting = path.apply(id, TxRequest.of("t-1", TxType.DEBIT, 100, now())).toCompletableFuture();
            await().atMost(Duration.ofSeconds(10)).until(waiting::isDone);
        }
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

        assertEquals(503, Refusals.status(failure(waiting)));
        assertTrue(elapsedMillis < 4_000, "answered after " + elapsedMillis + " ms, the lock timeout is 5 s");
        assertEquals(0, path.tasksUnderWay());
        assertEquals(1_000, AccountFeature.accounts(member).get(id).balance());
        assertEquals(0, AccountFeature.accounts(member).get(id).version(), "nothing was recorded");
    }
}
