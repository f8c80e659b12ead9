package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import io.partita.store.StoredEntry;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runs of a partition's disk share are written in order: a run that does not follow the last one written (the
 * message before it was lost, and Hazelcast's retry serialized the next runs) fails, so that its migration runs again
 * from the first run, and writes nothing.
 */
class DiskShareRunsTest {

    @TempDir
    Path dataDir;

    @Test
    void shouldRefuseARunThatDoesNotFollowTheLastOneWritten() {
        try (TestCluster cluster = TestCluster.durable("share-runs-" + UUID.randomUUID(), dataDir, "member-0")) {
            HazelcastInstance member = cluster.member(0);
            int partition = member.getPartitionService().getPartition("runs").getPartitionId();

            run(member, partition, 0, 1, 3);
            run(member, partition, 1, 4, 6);
            CompletionException gap = assertThrows(CompletionException.class, () -> run(member, partition, 3, 10, 12));
            assertInstanceOf(IllegalStateException.class, gap.getCause());
            assertTrue(gap.getCause().getMessage().contains("came after run 1"), gap.getCause().getMessage());
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), seqs(member, partition), "the run after a gap wrote nothing");

            // A new sending of the share starts again from its first run.
            run(member, partition, 0, 7, 7);
            run(member, partition, 1, 8, 8);
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), seqs(member, partition));
            assertEquals(new DiskShares.Received(4, 8), DiskShares.received(member));
        }
    }

    private static void run(HazelcastInstance member, int partition, int run, long fromSeq, long toSeq) {
        List<StoredEntry> entries = LongStream.rangeClosed(fromSeq, toSeq)
                .mapToObj(seq -> new StoredEntry("runs", seq, "tx-" + seq, 1_000, new byte[] {1})).toList();
        Internals.nodeEngine(member).getOperationService()
                .invokeOnPartition(DiskShares.SERVICE_NAME, new DiskShares.Share(entries, run), partition)
                .toCompletableFuture().join();
    }

    private static List<Long> seqs(HazelcastInstance member, int partition) {
        return MemberDisk.of(member).read(store -> store.history(partition, "runs", Long.MAX_VALUE, 100), null)
                .entries().stream().map(StoredEntry::seq).sorted().toList();
    }
}
