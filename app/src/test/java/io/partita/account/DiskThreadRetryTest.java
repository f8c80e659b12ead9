package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.node.DiskRecords;
import io.partita.node.MemberDisk;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A step of a member's recovery that fails (a grid call that times out on a busy machine, say) is run again: the
 * member's disk thread does not stop with it, which would leave the member recovering, and not ready, for good.
 */
class DiskThreadRetryTest {

    private static final String NOTES = "disk-thread-retry-notes";

    @TempDir
    Path dataDir;
    private final String clusterName = "disk-thread-retry-" + UUID.randomUUID();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRecoverEverythingWhenARecoveryStepFailsOnce() {
        Notes notes = new Notes(1);
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir,
                config -> DiskRecords.register(config, notes), "member-0", "member-1")) {
            HazelcastInstance member = cluster.member(0);
            IMap<String, String> map = member.getMap(NOTES);
            for (int i = 0; i < 20; i++) {
                map.put("note-" + i, "kept " + i);
            }
            account(cluster).open("a-1", 500, 0).toCompletableFuture().join();
            // The notes reach the disks with the next round that writes every copy.
            cluster.members().forEach(m -> MemberDisk.of(m).rewriteAll());
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.members().stream()
                    .allMatch(m -> MemberLedger.of(m).tailsOnDisk()));
            cluster.crashAll();
        }

        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir,
                config -> DiskRecords.register(config, notes), "member-0", "member-1")) {
            cluster.awaitRecovered();
            assertEquals(1, notes.failed.get(), "the first recovery of the notes failed");
            IMap<String, String> map = cluster.member(0).getMap(NOTES);
            for (int i = 0; i < 20; i++) {
                assertEquals("kept " + i, map.get("note-" + i));
            }
            assertEquals(500, AccountFeature.accounts(cluster.member(0)).get("a-1").balance());
        }
    }

    private static AccountService account(TestCluster cluster) {
        return TestAccess.Services.on(cluster.member(0), cluster.properties(0)).accounts();
    }

    /** Notes on disk whose first {@code failures} recoveries throw. */
    private static final class Notes extends TextRecords {

        private final int failures;
        private final AtomicInteger failed = new AtomicInteger();

        Notes(int failures) {
            super('n', NOTES);
            this.failures = failures;
        }

        @Override
        protected void recover(HazelcastInstance member, Map<String, String> records) {
            if (failed.getAndUpdate(n -> n < failures ? n + 1 : n) < failures) {
                throw new IllegalStateException("a recovery step failed");
            }
            member.<String, String>getMap(NOTES).putAll(records);
        }
    }
}
