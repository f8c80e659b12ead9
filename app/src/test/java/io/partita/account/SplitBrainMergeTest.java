package io.partita.account;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.partita.node.HazelcastConfigs;
import io.partita.node.Members;
import io.partita.node.PartitaProperties;
import io.partita.support.AllFeatures;
import io.partita.support.Ports;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real split-brain merge on real members: two members of one cluster name that do not know each other's address
 * start as two clusters of one (the state both sides of a network split are in), each takes its own transactions on
 * the same accounts, and then one learns the other's address: Hazelcast's split-brain handler finds the other cluster
 * and merges the smaller into the larger through the ledger's merge policies. Afterwards every transaction either side
 * acknowledged must be in its account once, with the balance they explain, answer a retry as it first answered, and
 * reach the journal; an account both sides debited past its limit must be reported as a conflict. Both members keep
 * their data on disk, and each disk must hold every one of them after the merge.
 *
 * <p>Each side records more on one account than a tail holds ({@link JournalSettings#MAX_HELD}), and waits until its
 * tail has let the oldest go and its journal map, which keeps 1 s here, no longer holds them either (the disk does):
 * the merge must still count every one.
 */
class SplitBrainMergeTest {

    @TempDir
    Path dataDir;

    private static final int POSTED_A = JournalSettings.MAX_HELD + 20;
    private static final int POSTED_B = JournalSettings.MAX_HELD + 10;
    private static final PartitaProperties.Journal SHORT_MAP = new PartitaProperties.Journal(Duration.ofHours(24), 64,
            Duration.ofMillis(50), Duration.ofSeconds(2), Duration.ofSeconds(1));

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldKeepEveryAcknowledgedTransactionOfBothSidesThroughAMerge() {
        String clusterName = "split-" + UUID.randomUUID();
        int portA = Ports.free();
        int portB = Ports.free();
        // Meant to have 2 members: each side alone holds its tails' newest entries for the merge. The journal map
        // keeps 1 s only: what the tails let go of, the merge must find on the members' disks.
        Config configA = HazelcastConfigs.memberConfig(TestProperties.durable(TestProperties.withClusterSize(
                TestProperties.tcp(clusterName, portA, List.of("127.0.0.1:" + portA), 0, SHORT_MAP), 2), dataDir, "a"),
                "http://127.0.0.1:0", AllFeatures.LIST);
        Config configB = HazelcastConfigs.memberConfig(TestProperties.durable(TestProperties.withClusterSize(
                TestProperties.tcp(clusterName, portB, List.of("127.0.0.1:" + portB), 0, SHORT_MAP), 2), dataDir, "b"),
                "http://127.0.0.1:0", AllFeatures.LIST);
        List<HazelcastInstance> started = new ArrayList<>();
        try {
            HazelcastInstance a = Members.start(configA, AllFeatures.LIST);
            started.add(a);
            HazelcastInstance b = Members.start(configB, AllFeatures.LIST);
            started.add(b);
            assertEquals(1, a.getCluster().getMembers().size());
            assertEquals(1, b.getCluster().getMembers().size());

            TestAccess.Services sideA = service(a);
            TestAccess.Services sideB = service(b);
            Map<String, TxOutcome> answers = new HashMap<>();
            for (TestAccess.Services side : List.of(sideA, sideB)) {
                open(side, "both", 1_000, 0);
                open(side, "limit", 100, 0);
            }
            open(sideB, "only-b", 500, 0);
            for (int i = 1; i <= POSTED_A; i++) {
                answers.put("a-" + i, apply(sideA, "both", "a-" + i, TxType.CREDIT, 10));
            }
            for (int i = 1; i <= POSTED_B; i++) {
                answers.put("b-" + i, apply(sideB, "both", "b-" + i, TxType.DEBIT, 1));
            }
            // One txId sent to both sides (a client that retried on the other side): it must count once.
            apply(sideA, "both", "same", TxType.CREDIT, 1);
            apply(sideB, "both", "same", TxType.CREDIT, 1);
            answers.put("la", apply(sideA, "limit", "la", TxType.DEBIT, 80));
            answers.put("lb", apply(sideB, "limit", "lb", TxType.DEBIT, 90));
            answers.put("ob", apply(sideB, "only-b", "ob", TxType.CREDIT, 5));
            // Once each side's journal holds its entries, one more write trims the tail down to what it holds.
            for (HazelcastInstance side : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> MemberLedger.of(side).journalPending() == 0
                        && MemberLedger.of(side).journalWritten() >= POSTED_B);
            }
            answers.put("a-last", apply(sideA, "both", "a-last", TxType.CREDIT, 10));
            answers.put("b-last", apply(sideB, "both", "b-last", TxType.DEBIT, 1));
            for (HazelcastInstance side : List.of(a, b)) {
                int held = Tail.size(AccountFeature.accounts(side).get("both").tail());
                assertTrue(held <= JournalSettings.MAX_HELD,
                        "the tail let its oldest entries go: only the journal holds them; held: " + held);
            }
            // Nor does the journal map hold them any longer: only the disks do.
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    !a.getMap(AccountFeature.JOURNAL).containsKey(new JournalKey("both", "a-1"))
                            && !b.getMap(AccountFeature.JOURNAL).containsKey(new JournalKey("both", "b-1")));

            // The network heals: A can now reach B, and the merge follows within the split-brain handler's rounds.
            configA.getNetworkConfig().getJoin().getTcpIpConfig().addMember("127.0.0.1:" + portB);
            await().atMost(Duration.ofSeconds(90)).until(() -> a.getCluster().getMembers().size() == 2
                    && b.getCluster().getMembers().size() == 2
                    && a.getPartitionService().isClusterSafe());
            HazelcastInstance any = a;
            TestAccess.Services merged = service(any);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Account both = AccountFeature.accounts(any).get("both");
                assertEquals(1_000 + (POSTED_A + 1) * 10 - (POSTED_B + 1) + 1, both.balance(),
                        "both sides' transactions, 'same' once");
                assertEquals(POSTED_A + POSTED_B + 3, both.version());
            });
            for (Map.Entry<String, TxOutcome> first : answers.entrySet()) {
                String accountId = first.getValue().entry().accountId();
                TxOutcome retry = apply(merged, accountId, first.getKey(), first.getValue().entry().type(),
                        first.getValue().entry().amount());
                assertEquals(TxOutcome.Kind.REPLAYED, retry.kind(), first.getKey());
                assertEquals(first.getValue().entry().status(), retry.entry().status(), first.getKey());
                assertEquals(first.getValue().entry().balanceAfter(), retry.entry().balanceAfter(), first.getKey());
            }
            TxOutcome same = apply(merged, "both", "same", TxType.CREDIT, 1);
            assertEquals(TxOutcome.Kind.REPLAYED, same.kind());
            assertEquals(TxStatus.APPLIED, same.entry().status());
            Account limit = AccountFeature.accounts(any).get("limit");
            assertEquals(100 - 80 - 90, limit.balance(), "both acknowledged debits stay");
            assertEquals(1, limit.conflicts());
            assertEquals(List.of("limit"), MergeConflicts.find(any, 10).stream().map(MergeConflicts.Conflict::id)
                    .toList());
            assertEquals(505, AccountFeature.accounts(any).get("only-b").balance());

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                List<JournalEntry> journal = merged.accounts().journal("both", 1_000);
                int expected = POSTED_A + POSTED_B + 3;
                assertEquals(expected, journal.size());
                assertEquals(expected, journal.stream().map(JournalEntry::seq).distinct().count(), "one seq per entry");
                assertTrue(journal.stream().map(JournalEntry::txId).toList().containsAll(
                        List.of("a-1", "a-" + POSTED_A, "a-last", "b-1", "b-" + POSTED_B, "b-last", "same")));
                // The side that was merged into keeps its own lines; the other side's arrive marked as merged.
                Set<String> fromOtherSide = journal.stream().filter(JournalEntry::merged).map(JournalEntry::txId)
                        .collect(Collectors.toSet());
                assertTrue(fromOtherSide.equals(txIds("a-", POSTED_A)) || fromOtherSide.equals(txIds("b-", POSTED_B)),
                        fromOtherSide::toString);
            });

            // Each member's own disk holds every acknowledged transaction, so a stop of both now loses nothing: the
            // merge put values into the maps of the side it merged into, owner's and backup's, without the ledger's
            // entry processors, which write them to disk.
            answers.put("same", same);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                for (HazelcastInstance member : started) {
                    for (Map.Entry<String, TxOutcome> answer : answers.entrySet()) {
                        String accountId = answer.getValue().entry().accountId();
                        int partition = member.getPartitionService().getPartition(accountId).getPartitionId();
                        assertNotNull(MemberLedger.of(member).onOwnDisk(partition, accountId, answer.getKey()),
                                answer.getKey() + " on the disk of " + member.getName());
                    }
                }
            });
        } finally {
            started.forEach(member -> member.getLifecycleService().terminate());
        }
    }

    /** The txIds one side posted on the shared account: {@code prefix}1 .. {@code prefix}count and its last one. */
    private static Set<String> txIds(String prefix, int count) {
        Set<String> ids = IntStream.rangeClosed(1, count).mapToObj(i -> prefix + i).collect(Collectors.toSet());
        ids.add(prefix + "last");
        return ids;
    }

    private static TestAccess.Services service(HazelcastInstance member) {
        return TestAccess.Services.on(member, TestProperties.tcp("unused", 0, List.of(), 0));
    }

    private static void open(TestAccess.Services side, String id, long balance, long limit) {
        side.accounts().open(id, balance, limit).toCompletableFuture().join();
    }

    private static TxOutcome apply(TestAccess.Services side, String accountId, String txId, TxType type, long amount) {
        // Stamped now, as a node stamps what it receives: tails hold what was recorded since the split by its time.
        return side.transactions().apply(accountId, TxRequest.of(txId, type, amount, System.currentTimeMillis()), null)
                .toCompletableFuture().join();
    }
}
