package io.partita.account;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.core.LifecycleListener;
import io.partita.node.MemberDisk;
import io.partita.node.Members;
import io.partita.node.PartitaProperties;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.Refusal;
import io.partita.support.Blocking;
import io.partita.support.TestCluster;
import io.partita.transaction.TransactionService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ledger on disk ({@code partita.durability=flush}): members that crash all at once and start again from their
 * data directories bring back every account, its balance and its journal, and a txId sent again is answered from the
 * first outcome, not applied again; a partition no disk brings back answers partition-lost, never 404, until an admin
 * accepts the loss.
 */
class DurableLedgerTest {

    private static final int ACCOUNTS = 300;
    private static final long OPENING = 10_000;

    @TempDir
    Path dataDir;
    /** The cluster's name, the same at each start: a member's data belongs to its cluster. */
    private final String clusterName = "durable-" + UUID.randomUUID();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldBringBackEveryAccountAndTransactionAfterEveryMemberCrashed() {
        Map<String, Long> expected = new HashMap<>();
        List<String> txIds = new ArrayList<>();
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            Ledger ledger = new Ledger(cluster);
            ledger.openAll(expected);
            // Half the transactions reach the journal (and leave their tails) before the crash, half do not.
            ledger.transact(expected, txIds, "first", 0);
            cluster.members().forEach(member -> MemberLedger.of(member).sweep(Long.MAX_VALUE));
            ledger.transact(expected, txIds, "second", 1);
            cluster.crashAll();
        }

        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            cluster.awaitRecovered();
            Ledger ledger = new Ledger(cluster);
            assertEquals(List.of(), PartitionSentinels.of(cluster.member(0)).lostPartitions());
            for (Map.Entry<String, Long> account : expected.entrySet()) {
                Optional<Account> found = ledger.accounts.find(account.getKey()).toCompletableFuture().join();
                assertEquals(account.getValue(), found.orElseThrow().balance(), account.getKey());
            }
            Map<String, Integer> journaled = new HashMap<>();
            for (String id : expected.keySet()) {
                ledger.accounts.journal(id, 1_000).forEach(entry -> journaled.merge(entry.txId(), 1, Integer::sum));
            }
            for (String txId : txIds) {
                assertEquals(1, journaled.getOrDefault(txId, 0), "journal lines of " + txId);
            }
            // Sent again after the restart, a transaction is answered as it was, and the balance does not move.
            String account = "acc-7";
            TxOutcome again = ledger.transactions.apply(account, TxRequest.of("first-7", TxType.CREDIT, 8,
                    ledger.accounts.now()), null).toCompletableFuture().join();
            assertEquals(TxOutcome.Kind.REPLAYED, again.kind());
            assertEquals(expected.get(account), ledger.balance(account));
            // An account that exists is not opened again, and one never opened is simply not there.
            CompletionException reopened = assertThrows(CompletionException.class,
                    () -> ledger.accounts.open(account, 1, 0).toCompletableFuture().join());
            assertEquals(Refusal.Kind.EXISTS, assertInstanceOf(Refusal.class, reopened.getCause()).kind());
            assertEquals(Optional.empty(), ledger.accounts.find("never-opened").toCompletableFuture().join());
            cluster.crashAll();
        }

        // A member of another cluster never takes this one's data for its own.
        assertThrows(IllegalStateException.class, () -> TestCluster.durable("another", dataDir, "member-0"));
    }

    /**
     * With the journal on disk a tail lets go of its entries past the hold whether or not the journal writer has copied
     * them to the journal map: each is on the member's disk already. Here the writer waits 20 s before it writes, so the
     * map holds none of them; the busy account's tail still stays at its cap, its whole history reads back, and a retry
     * of its oldest transaction, long gone from the tail, is answered from the disk.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldLetTailsGoOfWhatTheDiskHoldsWithoutWaitingForTheJournalMap() {
        PartitaProperties.Journal slowWriter = new PartitaProperties.Journal(Duration.ofHours(24), 100_000,
                Duration.ofSeconds(20), Duration.ofHours(1), Duration.ofMinutes(1));
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, slowWriter, "member-0", "member-1")) {
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.members().stream()
                    .allMatch(member -> MemberLedger.of(member).tailsOnDisk()));
            Ledger ledger = new Ledger(cluster);
            ledger.accounts.open("hot", OPENING, 0).toCompletableFuture().join();
            int count = JournalSettings.MAX_HELD * 2;
            List<TxOutcome> answers = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                answers.add(ledger.transactions.apply("hot", TxRequest.of("hot-" + i, TxType.CREDIT, i,
                        ledger.accounts.now()), null).toCompletableFuture().join());
            }
            HazelcastInstance member = cluster.member(0);
            assertFalse(member.getMap(AccountFeature.JOURNAL).containsKey(new JournalKey("hot", "hot-1")),
                    "the writer has not journaled it");
            int held = Tail.size(AccountFeature.accounts(member).get("hot").tail());
            assertTrue(held <= JournalSettings.MAX_HELD, "held: " + held);

            TxOutcome again = ledger.transactions.apply("hot", TxRequest.of("hot-1", TxType.CREDIT, 1,
                    ledger.accounts.now()), null).toCompletableFuture().join();
            assertEquals(TxOutcome.Kind.REPLAYED, again.kind());
            assertEquals(answers.get(0).entry().balanceAfter(), again.entry().balanceAfter());
            assertEquals(OPENING + (long) count * (count + 1) / 2, ledger.balance("hot"));
            List<String> history = ledger.accounts.journal("hot", 1_000).stream().map(JournalEntry::txId)
                    .filter(txId -> txId.startsWith("hot-")).sorted().toList();
            assertEquals(IntStream.rangeClosed(1, count).mapToObj(i -> "hot-" + i).sorted().toList(), history);
        }
    }

    /**
     * The disk write is queued on the partition thread and the answer sent once it is durable (DiskAcks): so whenever a
     * transaction is answered, owner's and backup's disks hold it already. Many calls at once, so that the writes share
     * rounds and an answer sent before its round would be seen at once.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHaveEveryAnsweredTransactionOnBothDisksAlready() {
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            Ledger ledger = new Ledger(cluster);
            ledger.openAll(new HashMap<>());
            List<String> missing = Collections.synchronizedList(new ArrayList<>());
            List<CompletableFuture<?>> calls = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    String id = "acc-" + i;
                    String txId = "answered-" + round + "-" + i;
                    int partition = cluster.member(0).getPartitionService().getPartition(id).getPartitionId();
                    calls.add(ledger.transactions.apply(id, TxRequest.of(txId, TxType.CREDIT, 1, ledger.accounts.now()),
                            null).toCompletableFuture().thenAccept(outcome -> {
                                for (HazelcastInstance member : cluster.members()) {
                                    boolean onDisk = MemberDisk.of(member).read(store ->
                                            store.find(partition, id, txId, Long.MAX_VALUE).isPresent(), false);
                                    if (!onDisk) {
                                        missing.add(txId + " on " + member.getName());
                                    }
                                }
                            }));
                }
            }
            calls.forEach(CompletableFuture::join);
            assertEquals(List.of(), missing);
            for (int i = 0; i < ACCOUNTS; i++) {
                assertEquals(OPENING + 4, ledger.balance("acc-" + i));
            }
        }
    }

    /**
     * A member that crashed earlier keeps copies on its disk that the others moved past; after a stop of every member,
     * its copies are joined with theirs, in whatever order the members read their disks: what only the newer copies
     * hold is neither lost nor counted twice. (A write of the older copy, once joined, on a member that had not read
     * its own disk yet, replaced the account's newer record there, and with it what that record counted: this test
     * failed in about half its runs before that write left the record alone.)
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldJoinACopyThatIsBehindWithoutLosingWhatTheNewerCopiesHold() {
        Map<String, Long> expected = new HashMap<>();
        List<String> txIds = new ArrayList<>();
        crashWithOneCopyBehind(expected, txIds);

        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            cluster.awaitRecovered();
            assertEquals(List.of(), new Ledger(cluster).differences(expected, txIds));
            cluster.crashAll();
        }
    }

    /**
     * A member holds replicas, and takes their writes, from the moment it joins the cluster, before its start has
     * opened its disk. Here the member whose disk holds the newer copies is slow to start: it holds replicas, but the
     * rest of its start waits until 5 s after the other's start has gone on with every partition replicated. The other
     * waits for it before its partitions serve, and what the other's recovery writes meanwhile does not replace the
     * account records on the slow member's disk. (Both failed before: the fast member
     * finished its recovery alone, the slow one had not yet said that its disk held data, and the records of the copies
     * that were behind replaced the newer ones on its disk, so the transactions only those held were lost. CI saw it
     * once, when a member's start was slow on a busy machine.)
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldWaitForAMemberThatIsSlowToStartBeforeServingWhatItsDiskHolds() {
        Map<String, Long> expected = new HashMap<>();
        List<String> txIds = new ArrayList<>();
        String newer = crashWithOneCopyBehind(expected, txIds);

        CountDownLatch replicated = new CountDownLatch(1);
        BiConsumer<String, Config> slowStart = (name, config) -> config.addListenerConfig(new ListenerConfig(
                new HeldStart(member -> {
                    if (name.equals(newer)) {
                        Blocking.run(() -> {
                            replicated.await(2, TimeUnit.MINUTES);
                            Thread.sleep(5_000);
                        });
                    } else {
                        await().atMost(Duration.ofMinutes(2)).until(() -> member.getCluster().getMembers().size() == 2
                                && member.getPartitionService().isClusterSafe());
                        replicated.countDown();
                    }
                })));
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, slowStart, "member-0", "member-1")) {
            cluster.awaitRecovered();
            assertEquals(List.of(), new Ledger(cluster).differences(expected, txIds));
            cluster.crashAll();
        }
    }

    /**
     * A member whose disk is behind (it crashed while the other went on alone) starts alone after every member crashed:
     * it cannot tell from its own disk that its copies are behind, but its disk recorded the two members it last saw,
     * and alone it is not a majority of them. So it waits: its accounts answer partition-lost, not their older
     * balances, and cannot be opened again. Once the member with the newer copies is back, every transaction is there
     * once. (Found from outside: a node killed first and started first after a stop of every node served its older
     * copies, answered 404 for accounts opened after it died, and applied retried txIds again.)
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldNotServeADiskThatIsBehindAloneAfterEveryMemberStopped() {
        Map<String, Long> expected = new HashMap<>();
        List<String> txIds = new ArrayList<>();
        String newer = crashWithOneCopyBehind(expected, txIds);
        String behind = "member-0".equals(newer) ? "member-1" : "member-0";

        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, behind)) {
            MemberDisk disk = MemberDisk.of(cluster.member(0));
            assertEquals(Set.of("member-0", "member-1"), disk.lastMembers());
            assertFalse(disk.lastMembersPresent());
            await("alone, it does not put its copies back").during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10)).until(disk::recovering);
            Ledger ledger = new Ledger(cluster);
            String id = expected.keySet().iterator().next();
            CompletionException read = assertThrows(CompletionException.class,
                    () -> ledger.accounts.find(id).toCompletableFuture().join());
            assertEquals(Refusal.Kind.PARTITION_LOST, assertInstanceOf(Refusal.class, read.getCause()).kind());
            CompletionException reopen = assertThrows(CompletionException.class,
                    () -> ledger.accounts.open(id, 1, 0).toCompletableFuture().join());
            assertEquals(Refusal.Kind.PARTITION_LOST, assertInstanceOf(Refusal.class, reopen.getCause()).kind());

            cluster.addDurableMember(newer);
            cluster.awaitSize(2);
            cluster.awaitRecovered();
            assertEquals(List.of(), new Ledger(cluster).differences(expected, txIds));
            cluster.crashAll();
        }
    }

    /**
     * Two members; the younger crashes after the first transaction on every account, and the oldest records two more
     * alone before both crash: so one disk's copies are behind the other's. Answers the name of the member with the
     * newer copies.
     */
    private String crashWithOneCopyBehind(Map<String, Long> expected, List<String> txIds) {
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1")) {
            // The younger member crashes: of two, the one left serves only if it is the oldest (an even split is won
            // by the side that holds it), and the members start together, so either may be.
            HazelcastInstance oldest = cluster.members().stream().filter(Members::isOldest).findFirst().orElseThrow();
            HazelcastInstance younger = cluster.members().stream().filter(member -> member != oldest).findFirst()
                    .orElseThrow();
            Ledger ledger = new Ledger(cluster, oldest);
            ledger.openAll(expected);
            ledger.transact(expected, txIds, "first", 0);
            cluster.terminate(younger);
            cluster.awaitSize(1);
            cluster.awaitSafe();
            // Both a debit or both a credit: a join that lost them shows in the balance too.
            ledger.transact(expected, txIds, "second", 1);
            ledger.transact(expected, txIds, "third", 1);
            String newer = MemberDisk.of(oldest).name();
            cluster.crashAll();
            return newer;
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldServeWithOneDiskLostAndRefuseWhatNoDiskBringsBack() throws IOException {
        Map<String, Long> expected = new HashMap<>();
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-1", "member-2")) {
            Ledger ledger = new Ledger(cluster);
            ledger.openAll(expected);
            ledger.transact(expected, new ArrayList<>(), "tx", 0);
            cluster.crashAll();
        }
        Path saved = Files.createTempDirectory("partita-saved-");
        copy(dataDir.resolve("member-2"), saved.resolve("member-2"));

        // One disk lost, with one backup: every partition had a copy on another, so everything is back.
        delete(dataDir.resolve("member-1"));
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, "member-0", "member-2")) {
            cluster.awaitRecovered();
            Ledger ledger = new Ledger(cluster);
            assertEquals(List.of(), PartitionSentinels.of(cluster.member(0)).lostPartitions());
            expected.forEach((id, balance) -> assertEquals(balance, ledger.balance(id), id));
            cluster.crashAll();
        }

        // Two of the three original disks lost: the partitions whose both copies were on them are lost. Their
        // accounts answer partition-lost, cannot be opened again, and a member with an empty disk changes nothing,
        // though it starts first: with the cluster's size set (3 here: alone, it is not a majority), its start waits
        // for a majority before it decides whether the cluster is new. The member that brings data is then present
        // but slow to start (held until the other has decided): asked, it says that its disk holds data. The rest
        // serve. Once an admin accepts the loss, those accounts are simply not there.
        delete(dataDir.resolve("member-0"));
        delete(dataDir.resolve("member-2"));
        copy(saved.resolve("member-2"), dataDir.resolve("member-2"));
        delete(saved);
        CountDownLatch decided = new CountDownLatch(1);
        BiConsumer<String, Config> slowWithData = (name, config) -> {
            if (name.equals("member-2")) {
                config.addListenerConfig(new ListenerConfig(new HeldStart(member ->
                        Blocking.run(() -> decided.await(2, TimeUnit.MINUTES)))));
            }
        };
        try (TestCluster cluster = TestCluster.durable(clusterName, dataDir, 3, slowWithData)) {
            CompletableFuture<HazelcastInstance> first = CompletableFuture.supplyAsync(
                    () -> cluster.addDurableMember("member-0"));
            first.whenComplete((member, failure) -> decided.countDown());
            HazelcastInstance empty = await().atMost(Duration.ofMinutes(1)).until(() -> Hazelcast
                    .getAllHazelcastInstances().stream().filter(instance -> instance.getConfig().getClusterName()
                            .equals(clusterName)).findFirst(), Optional::isPresent).orElseThrow();
            await("alone, it does not take the cluster for a new one").during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10)).until(() -> empty.getMap(PartitionSentinels.MAP).isEmpty());
            assertFalse(first.isDone(), "alone, it waits for a majority of the cluster's size");
            HazelcastInstance member = cluster.addDurableMember("member-2");
            first.join();
            cluster.awaitSize(2);
            cluster.awaitRecovered();
            Ledger ledger = new Ledger(cluster);
            PartitionSentinels sentinels = PartitionSentinels.of(member);
            List<Integer> lost = sentinels.lostPartitions();
            assertFalse(lost.isEmpty(), "a third of the partitions had both copies on the two lost disks");
            assertTrue(lost.size() < 271, "member-2's disk brought back the partitions it held");
            int refused = 0;
            for (Map.Entry<String, Long> account : expected.entrySet()) {
                String id = account.getKey();
                if (lost.contains(ledger.accounts.partitionOf(id))) {
                    CompletionException gone = assertThrows(CompletionException.class,
                            () -> ledger.accounts.find(id).toCompletableFuture().join());
                    assertEquals(Refusal.Kind.PARTITION_LOST, assertInstanceOf(Refusal.class, gone.getCause()).kind());
                    CompletionException reopen = assertThrows(CompletionException.class,
                            () -> ledger.accounts.open(id, 1, 0).toCompletableFuture().join());
                    assertEquals(Refusal.Kind.PARTITION_LOST, assertInstanceOf(Refusal.class, reopen.getCause()).kind());
                    refused++;
                } else {
                    assertEquals(account.getValue(), ledger.balance(id), id);
                }
            }
            assertTrue(refused > 0, "some of the accounts were in lost partitions");

            for (int partition : new TreeSet<>(lost)) {
                sentinels.restore(partition);
            }
            assertEquals(List.of(), sentinels.lostPartitions());
            String gone = expected.keySet().stream()
                    .filter(id -> lost.contains(ledger.accounts.partitionOf(id))).findFirst().orElseThrow();
            assertEquals(Optional.empty(), ledger.accounts.find(gone).toCompletableFuture().join());
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().equals("LOCK")) {
                    Files.copy(file, target);
                }
            }
        }
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** Holds a member's start once it has joined the cluster, before the rest of its start runs ({@code hold}). */
    private static final class HeldStart implements LifecycleListener, HazelcastInstanceAware {

        private final Consumer<HazelcastInstance> hold;
        private volatile HazelcastInstance member;

        HeldStart(Consumer<HazelcastInstance> hold) {
            this.hold = hold;
        }

        @Override
        public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
            this.member = hazelcastInstance;
        }

        @Override
        public void stateChanged(LifecycleEvent event) {
            if (event.getState() == LifecycleEvent.LifecycleState.STARTED) {
                hold.accept(member);
            }
        }
    }

    /** The services of the first member, and the workload the tests run through them. */
    private static final class Ledger {
        final AccountService accounts;
        final TransactionService transactions;

        Ledger(TestCluster cluster) {
            this(cluster, cluster.member(0));
        }

        Ledger(TestCluster cluster, HazelcastInstance member) {
            TestAccess.Services services = TestAccess.Services.on(member, cluster.properties(0));
            this.accounts = services.accounts();
            this.transactions = services.transactions();
        }

        void openAll(Map<String, Long> expected) {
            for (int i = 0; i < ACCOUNTS; i++) {
                accounts.open("acc-" + i, OPENING, 0).toCompletableFuture().join();
                expected.put("acc-" + i, OPENING);
            }
        }

        /** One debit or credit on every account, each with a txId {@code prefix-i}. */
        void transact(Map<String, Long> expected, List<String> txIds, String prefix, int parity) {
            for (int i = 0; i < ACCOUNTS; i++) {
                String id = "acc-" + i;
                boolean debit = (i + parity) % 2 == 0;
                long amount = 1 + i % 50;
                String txId = prefix + "-" + i;
                TxOutcome outcome = transactions.apply(id, TxRequest.of(txId, debit ? TxType.DEBIT : TxType.CREDIT,
                        amount, accounts.now()), null).toCompletableFuture().join();
                assertEquals(TxOutcome.Kind.RECORDED, outcome.kind(), txId);
                assertEquals(TxStatus.APPLIED, outcome.entry().status(), txId);
                expected.merge(id, debit ? -amount : amount, Long::sum);
                txIds.add(txId);
            }
        }

        long balance(String id) {
            return accounts.find(id).toCompletableFuture().join().orElseThrow().balance();
        }

        /**
         * How the ledger differs from {@code expected} balances and from every one of {@code txIds} in its account's
         * journal exactly once (an account's txIds start with {@code acc-<i>}'s {@code i} after their prefix).
         */
        List<String> differences(Map<String, Long> expected, List<String> txIds) {
            Map<String, Integer> journaled = new HashMap<>();
            for (String id : expected.keySet()) {
                accounts.journal(id, 1_000).forEach(entry -> journaled.merge(entry.txId(), 1, Integer::sum));
            }
            List<String> wrong = new ArrayList<>();
            expected.forEach((id, balance) -> {
                if (balance(id) != balance) {
                    wrong.add(id + " has " + balance(id) + ", not " + balance);
                }
            });
            txIds.stream().filter(txId -> journaled.getOrDefault(txId, 0) != 1)
                    .forEach(txId -> wrong.add(txId + " is in the journal " + journaled.getOrDefault(txId, 0) + "x"));
            return wrong;
        }
    }
}
