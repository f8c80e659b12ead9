package io.partita.job;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.MemberDisk;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A job is on the disks of its record's owner and backup from its start; once it has finished and its retention has
 * passed, it leaves the map and both disks.
 */
class ForgetJobTest {

    @TempDir
    Path dataDir;
    private final String clusterName = "forget-job-" + UUID.randomUUID();

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldForgetAnExpiredJobOnEveryDisk() {
        String id = "audit-" + UUID.randomUUID();
        JobSettings briefRetention = new JobSettings(Duration.ofMillis(100), 64, Duration.ZERO, Duration.ofSeconds(2),
                Duration.ofMillis(100));
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1");
             JobMembers jobs = new JobMembers(briefRetention)) {
            HazelcastInstance member = cluster.member(0);
            JobService service = jobs.on(member).jobs();
            service.tryStart(id, new JobSpec(JobType.AUDIT, 0, 0, true), null);
            assertEquals(2, disksHolding(cluster, id), "the owner's and the backup's");

            await().atMost(Duration.ofSeconds(30)).until(() -> service.find(id).map(Job::running).orElse(false)
                    == Boolean.FALSE);
            await().atMost(Duration.ofSeconds(30)).until(() -> service.find(id).isEmpty());
            await().atMost(Duration.ofSeconds(10)).until(() -> disksHolding(cluster, id) == 0);
        }
    }

    /** How many members' disks hold a record of job {@code id}. */
    private static int disksHolding(TestCluster cluster, String id) {
        HazelcastInstance any = cluster.member(0);
        int partition = any.getPartitionService().getPartition(id).getPartitionId();
        byte[] key = new JobDisk(Duration.ZERO).record(id, null).key();
        int holding = 0;
        for (HazelcastInstance member : cluster.members()) {
            AtomicBoolean found = new AtomicBoolean();
            MemberDisk.of(member).use(store -> store.records(partition, record -> {
                if (Arrays.equals(record.key(), key)) {
                    found.set(true);
                }
            }));
            holding += found.get() ? 1 : 0;
        }
        return holding;
    }
}
