package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.properties.ClusterProperty;
import io.partita.node.DiskRecords;
import io.partita.node.DiskShares;
import io.partita.node.HazelcastConfigs;
import io.partita.node.MemberDisk;
import io.partita.node.MembershipNotice;
import io.partita.store.StoredEntry;
import io.partita.store.StoredRecord;
import io.partita.support.TestCluster;
import io.partita.transaction.TransactionService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With the journal on disk the journal map keeps only its last minutes, and the disks keep the whole retention: a
 * transaction older than the map's window is still recognised when it is sent again (answered from its first outcome,
 * not applied again) and still in the account's history, paged. The disks' history follows its partitions: to the
 * member a partition migrates to (which then serves it alone after the first member crashed), and, after every member
 * crashed, from a restarted member's disk to the members that hold its partitions now (which serve it alone after that
 * member crashed too).
 */
class DiskHistoryTest {

    private static final int ACCOUNTS = 40;
    private static final int OLD_PER_ACCOUNT = 3;
    private static final long OPENING = 1_000;
    private static final long HOUR = Duration.ofHours(1).toMillis();

    @TempDir
    Path dataDir;
    private final String clusterName = "disk-history-" + UUID.randomUUID();
    private final Map<String, Long> expected = new HashMap<>();
    /** The transactions recorded an hour back, past the journal map's window: txId to its request. */
    private final Map<String, TxRequest> old = new HashMap<>();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldKeepTheWholeHistoryOnDiskThroughAMigrationACrashAndARestart() {
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0")) {
            TestAccess.Services ledger = TestAccess.Services.on(cluster.member(0), cluster.properties(0));
            recordOldAndNew(cluster, ledger);
            assertEverythingServed(ledger);

            // The disk answers for a txId only what the account counts: at a version below the entry's seq (a copy
            // put back that is behind the disk's), the entry is not known, so a join or a retry records it.
            HazelcastInstance member0 = cluster.member(0);
            int partition = member0.getPartitionService().getPartition("acc-2").getPartitionId();
            JournalEntry oldest = MemberLedger.of(member0).known(partition, "acc-2", "old-2-0", Long.MAX_VALUE);
            assertEquals(1, oldest.seq(), "the first transaction of acc-2, on disk only");
            assertEquals(oldest, MemberLedger.of(member0).known(partition, "acc-2", "old-2-0", 1));
            assertNull(MemberLedger.of(member0).known(partition, "acc-2", "old-2-0", 0));

            // Paged: the newest two, then the two before them, then the last one.
            List<JournalEntry> first = ledger.accounts().journal("acc-1", Long.MAX_VALUE, 2);
            assertEquals(List.of("new-1", "old-1-2"), first.stream().map(JournalEntry::txId).toList());
            List<JournalEntry> second = ledger.accounts().journal("acc-1", first.get(1).seq(), 2);
            assertEquals(List.of("old-1-1", "old-1-0"), second.stream().map(JournalEntry::txId).toList());
            assertEquals(List.of(), ledger.accounts().journal("acc-1", second.get(1).seq(), 2));

            // A second member: half the partitions move to it, and it backs up the rest, each with its history.
            HazelcastInstance member1 = cluster.addDurableMember("member-1");
            awaitBalanced(cluster, member1);
            crashAndForget(cluster, cluster.member(0), member1);
            assertEverythingServed(TestAccess.Services.on(member1, cluster.properties(0)));
            cluster.crashAll();
        }

        // Every member down. member-1 comes back with its disk beside member-2 with an empty one; the partitions
        // member-2 now holds get their history from member-1's disk, and member-2 serves everything once member-1
        // crashed again.
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-1", "member-2")) {
            cluster.awaitRecovered();
            HazelcastInstance member1 = named(cluster, "member-1");
            HazelcastInstance member2 = named(cluster, "member-2");
            awaitBalanced(cluster, member2);
            assertEverythingServed(TestAccess.Services.on(member2, cluster.properties(0)));
            crashAndForget(cluster, member1, member2);
            assertEverythingServed(TestAccess.Services.on(member2, cluster.properties(0)));
        }
    }

    /**
     * A restarted member's disk history reaches a member that joins while the restarted one is still putting it back:
     * the migrations of a recovery carry no disk share (the recovery offers it, sending only what the holders lack),
     * so a partition whose history was offered before the second member took it over is offered again. Here member-0
     * comes back alone, offers the first partitions to nobody, and stops in the middle of its partitions until member-1
     * has joined and taken a copy of every partition; member-1 then serves everything alone.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldOfferTheHistoryAgainToAMemberThatTookPartitionsOverDuringTheRecovery() throws Exception {
        Pause pause = new Pause();
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, config -> DiskRecords.register(config,
                pause), "member-0")) {
            HazelcastInstance member0 = cluster.member(0);
            recordOldAndNew(cluster, TestAccess.Services.on(member0, cluster.properties(0)));
            // A note in a partition past the middle, after the partitions of some of the accounts.
            String note = IntStream.range(0, 10_000).mapToObj(i -> "note-" + i).filter(key ->
                    member0.getPartitionService().getPartition(key).getPartitionId() >= 200).findFirst().orElseThrow();
            int notePartition = member0.getPartitionService().getPartition(note).getPartitionId();
            assertTrue(expected.keySet().stream().anyMatch(id ->
                    member0.getPartitionService().getPartition(id).getPartitionId() < notePartition));
            member0.getMap(Pause.MAP).put(note, "kept");
            MemberDisk.of(member0).rewriteAll();
            await().atMost(Duration.ofSeconds(30)).until(() -> MemberLedger.of(member0).tailsOnDisk());
            cluster.crashAll();
        }

        pause.armed = true;
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, config -> DiskRecords.register(config,
                pause), "member-0")) {
            assertTrue(pause.reached.await(60, TimeUnit.SECONDS), "the recovery reached the note's partition");
            HazelcastInstance member1 = cluster.addDurableMember("member-1");
            awaitBalanced(cluster, member1);
            pause.resume.countDown();
            cluster.awaitRecovered();
            assertEquals("kept", member1.getMap(Pause.MAP).values().stream().findFirst().orElseThrow());
            crashAndForget(cluster, named(cluster, "member-0"), member1);
            assertEverythingServed(TestAccess.Services.on(member1, cluster.properties(0)));
        }
    }

    /**
     * A partition's share larger than a migration message (1 MB here) reaches the joining member whole, in runs read
     * from the disk as they are sent, never read or sent in one piece.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldMoveAShareLargerThanAMigrationMessageInRuns() {
        int entries = 5 * DiskShares.SHARE_RUN + 7;
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, config -> config.setProperty(
                ClusterProperty.PARTITION_CHUNKED_MAX_MIGRATING_DATA_IN_MB.getName(), "1"), "member-0")) {
            HazelcastInstance member0 = cluster.member(0);
            int partition = member0.getPartitionService().getPartition("big").getPartitionId();
            long now = TestAccess.Services.on(member0, cluster.properties(0)).accounts().now();
            List<StoredEntry> share = new ArrayList<>();
            for (int seq = 1; seq <= entries; seq++) {
                JournalEntry entry = new JournalEntry("big", "tx-" + seq, TxType.CREDIT, 1, TxStatus.APPLIED, seq,
                        now, seq, "r".repeat(150), false);
                share.add(new StoredEntry("big", seq, entry.txId(), now, Tail.encode(entry)));
            }
            MemberDisk.of(member0).use(store -> store.writeNow(partition, share, List.of(), true));

            HazelcastInstance member1 = cluster.addDurableMember("member-1");
            awaitBalanced(cluster, member1);
            List<StoredEntry> arrived = new ArrayList<>();
            MemberDisk.of(member1).use(store -> store.export(partition, 1_000, arrived::addAll));
            assertEquals(share.stream().map(StoredEntry::txId).toList(),
                    arrived.stream().sorted(Comparator.comparingLong(StoredEntry::seq)).map(StoredEntry::txId)
                            .toList());
            // About 4 MB: several messages of 1 MB, each of whole runs (a migration that failed and ran again sends
            // its runs again, so these are lower bounds).
            DiskShares.Received received = DiskShares.received(member1);
            assertTrue(received.entries() >= entries, "every entry sent: " + received);
            assertTrue(received.runs() >= 6, "in runs of " + DiskShares.SHARE_RUN + ": " + received);
        }
    }

    /**
     * A migration from a member whose recovery still held its disk share back (see {@code MemberDisk#shareHeldBack})
     * went without it: once the migration is over, the member offers the partition's history again to the holders it
     * has then, and the one that lacked it gets it. (The recovery offers each partition to the holders it finds, and
     * offers it once more if they changed before it looked again; a migration that was still under way then, or that
     * committed after it looked, left its new holder without the history, and a retried txId found nothing there.)
     * Here the history is on member-0's disk only, as a migration without its share leaves it, and member-0 is told
     * that such a migration of its partition is over.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldOfferTheHistoryAgainOnceAMigrationWithoutItsShareIsOver() {
        offerAgainAfterAMigrationWithoutItsShare(false);
    }

    /**
     * The same with the account's record on the disk, and all of its entries recorded within a second of its newest:
     * the recent entries, which the recovery joins into the tails rather than offering them, are offered again too
     * (the tails carried only what they still held when the migration came). Before, only the older history was
     * offered again, and the new holder never got these.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldOfferAnAccountsRecentEntriesAgainOnceAMigrationWithoutItsShareIsOver() {
        offerAgainAfterAMigrationWithoutItsShare(true);
    }

    private void offerAgainAfterAMigrationWithoutItsShare(boolean withRecord) {
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            HazelcastInstance member0 = cluster.member(0);
            HazelcastInstance member1 = cluster.member(1);
            cluster.awaitRecovered();
            int partition = member0.getPartitionService().getPartition("withheld").getPartitionId();
            long now = TestAccess.Services.on(member0, cluster.properties(0)).accounts().now();
            List<StoredEntry> history = new ArrayList<>();
            for (int seq = 1; seq <= 50; seq++) {
                JournalEntry entry = new JournalEntry("withheld", "w-" + seq, TxType.CREDIT, 1, TxStatus.APPLIED, seq,
                        now - HOUR + seq, seq, null, false);
                history.add(new StoredEntry("withheld", seq, entry.txId(), entry.at(), Tail.encode(entry)));
            }
            List<StoredRecord> records = withRecord ? List.of(new StoredRecord(LedgerDisk.accountKey("withheld"),
                    LedgerDisk.encode(new Account(50, 0, 50, 0, 0, Tail.EMPTY, List.of(), 0)))) : List.of();
            MemberDisk.of(member0).use(store -> store.writeNow(partition, history, records, true));
            assertEquals(0, historyOn(member1, partition), "member-1's disk lacks it");

            MemberDisk.of(member0).shareWithheld(partition, DiskShares.holdersVersion(member0, partition) - 1);

            await().atMost(Duration.ofSeconds(60)).until(() -> historyOn(member1, partition) == history.size());
            assertEquals(-1, MemberDisk.of(member0).withheldAt(partition), "offered once");
        }
    }

    private static int historyOn(HazelcastInstance member, int partition) {
        return MemberDisk.of(member).read(store -> store.history(partition, "withheld", Long.MAX_VALUE, 1_000)
                .entries().size(), 0);
    }

    /** Opens the accounts, each with its old debits an hour back and a new credit; the old ones only on disk. */
    private void recordOldAndNew(TestCluster cluster, TestAccess.Services ledger) {
        long now = ledger.accounts().now();
        for (int i = 0; i < ACCOUNTS; i++) {
            String id = "acc-" + i;
            ledger.accounts().open(id, OPENING, 0).toCompletableFuture().join();
            expected.put(id, OPENING);
            for (int k = 0; k < OLD_PER_ACCOUNT; k++) {
                TxRequest request = TxRequest.of("old-" + i + "-" + k, TxType.DEBIT, 1 + k, now - HOUR + k);
                apply(ledger.transactions(), id, request, TxOutcome.Kind.RECORDED);
                old.put(request.txId(), request);
            }
            apply(ledger.transactions(), id, TxRequest.of("new-" + i, TxType.CREDIT, 100, now),
                    TxOutcome.Kind.RECORDED);
        }
        TestAccess.awaitOnlyOnDisk(cluster.member(0), now - HOUR / 2);
    }

    /** Notes on disk whose recovery, once armed, waits for {@link #resume} (and says it has reached it). */
    private static final class Pause extends TextRecords {

        static final String MAP = "disk-history-notes";

        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch resume = new CountDownLatch(1);
        private volatile boolean armed;

        Pause() {
            super('n', MAP);
        }

        @Override
        protected void recover(HazelcastInstance member, Map<String, String> records) {
            if (armed) {
                reached.countDown();
                try {
                    resume.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            member.<String, String>getMap(MAP).putAll(records);
        }
    }

    private static HazelcastInstance named(TestCluster cluster, String name) {
        return cluster.members().stream().filter(member -> name.equals(MemberDisk.of(member).name())).findFirst()
                .orElseThrow();
    }

    /** Waits until {@code joined} owns its share of the partitions and every partition has its backup. */
    private static void awaitBalanced(TestCluster cluster, HazelcastInstance joined) {
        cluster.awaitSize(2);
        await("a copy of every partition on the joined member").atMost(Duration.ofSeconds(60)).until(() ->
                IntStream.range(0, HazelcastConfigs.PARTITION_COUNT)
                        .allMatch(partition -> MemberDisk.of(joined).holdsReplica(partition, 1)));
        cluster.awaitSafe();
    }

    /** A crash of {@code crashed}, which an operator then declares gone, so that {@code survivor} serves alone. */
    private static void crashAndForget(TestCluster cluster, HazelcastInstance crashed, HazelcastInstance survivor) {
        cluster.terminate(crashed);
        cluster.awaitSize(1);
        MembershipNotice.forgetMissing(survivor, "the test");
        await("the survivor is the majority").atMost(Duration.ofSeconds(30))
                .until(() -> HazelcastConfigs.majorityPresent(survivor));
        cluster.awaitSafe();
    }

    /** Every balance; every old transaction in its account's history once; each sent again, answered from the first. */
    private void assertEverythingServed(TestAccess.Services ledger) {
        for (String id : expected.keySet()) {
            assertEquals(balance(id), ledger.accounts().find(id).toCompletableFuture().join().orElseThrow().balance(),
                    id);
            List<String> history = ledger.accounts().journal(id, 1_000).stream().map(JournalEntry::txId).toList();
            String n = id.substring("acc-".length());
            assertEquals(List.of("new-" + n, "old-" + n + "-2", "old-" + n + "-1", "old-" + n + "-0"), history, id);
        }
        for (String txId : old.keySet()) {
            String id = "acc-" + txId.split("-")[1];
            TxOutcome again = apply(ledger.transactions(), id, old.get(txId), TxOutcome.Kind.REPLAYED);
            assertEquals(txId, again.entry().txId());
        }
        expected.keySet().forEach(id -> assertEquals(balance(id),
                ledger.accounts().find(id).toCompletableFuture().join().orElseThrow().balance(), id));
    }

    /** The account's opening, less its three old debits (1, 2 and 3), plus its new credit of 100. */
    private long balance(String id) {
        return expected.get(id) - (1 + 2 + 3) + 100;
    }

    private static TxOutcome apply(TransactionService transactions, String accountId, TxRequest request,
                                   TxOutcome.Kind kind) {
        TxOutcome outcome = transactions.apply(accountId, request, null).toCompletableFuture().join();
        assertEquals(kind, outcome.kind(), request.txId());
        return outcome;
    }
}
