package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.impl.InternalPartitionServiceImpl;
import com.hazelcast.internal.partition.impl.PartitionStateManager;
import io.partita.node.Internals;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The watchdog on a real member whose partition flags are set by hand, as a promotion that never finalizes leaves
 * them: a partition flagged for the whole timeout restarts the node, once; a flag that clears in between (a migration
 * that finishes) does not, and the count starts again.
 */
class StuckMigrationsTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @Test
    void shouldRestartTheNodeOnlyWhenAPartitionStaysFlaggedAsMigratingForTheWholeTimeout() {
        try (TestCluster cluster = TestCluster.start(1)) {
            HazelcastInstance member = cluster.member(0);
            PartitionStateManager flags = ((InternalPartitionServiceImpl) Internals.nodeEngine(member)
                    .getPartitionService()).getPartitionStateManager();
            AtomicLong now = new AtomicLong(1_000_000);
            AtomicInteger restarts = new AtomicInteger();
            StuckMigrations watchdog = new StuckMigrations(member, TIMEOUT, now::get, restarts::incrementAndGet);
            // The watchdog sees partition 7 unflagged, then flagged, then still flagged a tick short of the timeout.
            Runnable flagJustShortOfTheTimeout = () -> {
                watchdog.check();
                flags.trySetMigratingFlag(7);
                watchdog.check();
                now.addAndGet(TIMEOUT.toMillis() - 1);
                watchdog.check();
            };

            flagJustShortOfTheTimeout.run();
            assertEquals(0, restarts.get(), "flagged for less than the timeout: a migration may still finish");

            flags.clearMigratingFlag(7);
            now.addAndGet(1_000);
            flagJustShortOfTheTimeout.run();
            assertEquals(0, restarts.get(), "the flag cleared in between: the count started again");

            now.addAndGet(1);
            watchdog.check();
            assertEquals(1, restarts.get(), "flagged through the whole timeout: stuck");
            now.addAndGet(TIMEOUT.toMillis());
            watchdog.check();
            assertEquals(1, restarts.get(), "a node restarts once");
            flags.clearMigratingFlag(7);
        }
    }
}
