package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Invariants 1 to 4 on real members: 16 threads post 5,000 debits and credits over 100 accounts, a fifth of them
 * retried, and every balance, answer and journal entry is checked afterwards.
 */
class ExactlyOnceClusterTest {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldKeepEveryBalanceExactUnderConcurrentRetriedLoadOnThreeMembers() throws Exception {
        try (TestCluster cluster = TestCluster.start(3)) {
            LedgerLoad load = new LedgerLoad(cluster, 100, 5_000, 0.2, 1);
            load.openAccounts();
            load.run(16);
            load.verify();
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldStayExactWhenAMemberLeavesGracefullyAndAnotherCrashesMidRun() throws Exception {
        try (TestCluster cluster = TestCluster.start(4)) {
            LedgerLoad load = new LedgerLoad(cluster, 100, 5_000, 0.2, 2);
            load.openAccounts();
            HazelcastInstance leaving = cluster.member(3);
            HazelcastInstance crashing = cluster.member(2);

            // Its own thread: the faults block, and the common pool serves Hazelcast's callbacks.
            ExecutorService faultThread = Executors.newSingleThreadExecutor();
            CompletableFuture<Void> faults = CompletableFuture.runAsync(() -> {
                await().atMost(Duration.ofMinutes(2)).until(() -> load.done() >= load.total() / 4);
                cluster.shutdown(leaving);
                cluster.awaitSafe();
                await().atMost(Duration.ofMinutes(2)).until(() -> load.done() >= load.total() / 2);
                cluster.terminate(crashing);
            }, faultThread);
            load.run(16);
            faults.get(1, TimeUnit.MINUTES);
            faultThread.shutdown();

            cluster.awaitSize(2);
            cluster.awaitSafe();
            load.verify();
        }
    }
}
