package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.MembershipNotice;
import io.partita.node.PartitaProperties;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariants 1 to 4 (app/DESIGN.md) on real members: 16 threads post 5,000 debits and credits over 100 accounts, a
 * fifth of them retried, and every balance, answer and journal entry is checked afterwards; and a member that crashes
 * with entries it recorded but never wrote to the journal.
 */
class ExactlyOnceClusterTest {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldKeepEveryBalanceExactUnderConcurrentRetriedLoadOnThreeMembers() throws Exception {
        try (TestCluster cluster = TestCluster.start(3)) {
            LedgerLoad load = LedgerLoad.opened(cluster, 100, 5_000, 0.2, 1);
            load.run(16);
            load.verify();
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldStayExactWhenAMemberLeavesGracefullyAndAnotherCrashesMidRun() throws Exception {
        try (TestCluster cluster = TestCluster.start(4)) {
            LedgerLoad load = LedgerLoad.opened(cluster, 100, 5_000, 0.2, 2);
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
            // The crashed member is not coming back, and an operator says so: until then the tails would keep what a
            // merge with it needs, since a crash looks like a split from here ("Network splits").
            MembershipNotice.forgetMissing(cluster.member(0), "test");
            load.verify();
        }
    }

    /**
     * The window the journal writer opens: a transaction is acknowledged once its entry is in the account's tail (with
     * its backup), and the journal write comes later. The writers here hold entries for 20 s, so a member crashes with
     * its queue full. The survivors must answer every retry as the first time (from the tails they took over) and, once
     * swept, journal every entry exactly once.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldLoseNothingWhenAMemberCrashesBeforeItsJournalWrite() throws Exception {
        PartitaProperties.Journal slowWriter =
                new PartitaProperties.Journal(Duration.ofHours(24), 100_000, Duration.ofSeconds(20), Duration.ofHours(1),
                        Duration.ofMinutes(1));
        try (TestCluster cluster = TestCluster.start(3, slowWriter)) {
            LedgerLoad load = LedgerLoad.opened(cluster, 60, 1_500, 0.2, 3);
            load.run(8);
            HazelcastInstance crashing = cluster.member(1);
            int queued = MemberLedger.of(crashing).journalPending();
            long journaled = AccountFeature.journal(cluster.member(0)).size();
            assertTrue(queued > 0, "the crashing member holds no unwritten entries");
            assertTrue(journaled < load.total(), "the journal already holds every entry: " + journaled);

            cluster.terminate(crashing);
            cluster.awaitSize(2);
            cluster.awaitSafe();
            load.retryAll();
            // The oldest member would sweep on its own every sweep-interval (here an hour); the check sweeps now: a
            // sweep writes what the journal lacks, and the next one trims it from the tails.
            load.verify();
        }
    }
}
