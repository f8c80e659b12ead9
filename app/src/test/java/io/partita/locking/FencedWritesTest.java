package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalRecord;
import io.partita.account.TestAccess;
import io.partita.account.TxOutcome;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.MemberDisk;
import io.partita.refusal.Refusal;
import io.partita.support.TestCluster;
import io.partita.web.Refusals;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The locked path's read, check and write on one real member, with a hook that runs other writers between its first
 * and its second read: the interleaving that applied a txId twice is made to happen every time instead of by luck.
 */
class FencedWritesTest {


    private static TestCluster cluster;
    private static HazelcastInstance member;

    @BeforeAll
    static void start() {
        cluster = TestCluster.start(1);
        member = cluster.member(0);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Now by the cluster's clock, which the node stamps requests with (the journal's retention judges by it). */
    private static long now() {
        return ClusterClock.now(member);
    }

    private static String open(long balance) {
        String id = "fw-" + UUID.randomUUID().toString().substring(0, 8);
        AccountFeature.accounts(member).set(id, Account.open(balance, 0));
        return id;
    }

    /** A partitioned-mode transaction: its entry processor, which records the entry in the account's tail. */
    @SuppressWarnings("unchecked")
    private static TxOutcome partitioned(String accountId, TxRequest request) {
        var processor = (EntryProcessor<String, Account, TxOutcomes>) TestAccess.applyTransaction(accountId, request);
        return AccountFeature.accounts(member).executeOnKey(accountId, processor).list().get(0);
    }

    /** What the journal writer does for one entry: journal it, then trim it from the tail. */
    private static void journal(JournalEntry entry) {
        AccountFeature.journal(member).set(entry.key(), JournalRecord.of(entry));
        @SuppressWarnings("unchecked")
        var trim = (EntryProcessor<String, Account, Object>) TestAccess.trimTails(
                java.util.Map.of(entry.accountId(), entry.seq()));
        AccountFeature.accounts(member).executeOnKey(entry.accountId(), trim);
    }

    @Test
    void shouldReplayATxIdThatMovedFromTheAccountToTheJournalBetweenTheReads() {
        String id = open(1_000);
        TxRequest debit = TxRequest.of("t-1", TxType.DEBIT, 100, now());
        // A partitioned-mode transaction recorded t-1 in the account's tail; the journal does not hold it yet.
        JournalEntry first = partitioned(id, debit).entry();
        Hook hook = new Hook(() -> {
            // Between the locked path's two reads: the journal writer copies t-1 and trims it from the tail, and two
            // more partitioned transactions land.
            journal(first);
            journal(partitioned(id, TxRequest.of("c-1", TxType.CREDIT, 1, now())).entry());
            partitioned(id, TxRequest.of("c-2", TxType.CREDIT, 1, now()));
        });
        FencedWrites writer = new FencedWrites(hook.on(AccountFeature.accounts(member)), hook
                .on(AccountFeature.journal(member)), hook.counted(member),
                (accountId, txId, throughSeq) -> CompletableFuture.completedFuture(Optional.empty()));

        TxOutcome retried = writer.apply(1, id, debit, Deadline.after(Duration.ofSeconds(30)));

        assertEquals(TxOutcome.Kind.REPLAYED, retried.kind());
        assertEquals(first, retried.entry());
        assertEquals(902, AccountFeature.accounts(member).get(id).balance());
        assertEquals(null, AccountFeature.accounts(member).get(id).recorded(id, "t-1"),
                "t-1 left the tail for the journal");
        assertEquals(0, hook.writes.get(), "decided from what it read; no write was even attempted");
    }

    @Test
    void shouldApplyANewTxIdOnceAndCarryTheFence() {
        String id = open(1_000);
        FencedWrites writer = new FencedWrites(member);

        TxOutcome outcome = writer.apply(3, id, TxRequest.of("t-1", TxType.DEBIT, 100, now()),
                Deadline.after(Duration.ofSeconds(30)));
        TxOutcome again = writer.apply(3, id, TxRequest.of("t-1", TxType.DEBIT, 100, now()),
                Deadline.after(Duration.ofSeconds(30)));

        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(TxOutcome.Kind.REPLAYED, again.kind());
        assertEquals(900, AccountFeature.accounts(member).get(id).balance());
        assertEquals(3, AccountFeature.accounts(member).get(id).fence());
    }

    @Test
    void shouldAnswerATxIdOnlyTheOwnersDiskHoldsFromItsFirstOutcome(@TempDir Path dataDir) {
        try (TestCluster durable = TestCluster.durable("fenced-" + UUID.randomUUID(), dataDir, "m-0")) {
            HazelcastInstance owner = durable.member(0);
            TestAccess.Services ledger = TestAccess.Services.on(owner, durable.properties(0));
            ledger.accounts().open("old", 1_000, 0).toCompletableFuture().join();
            long hourAgo = ledger.accounts().now() - Duration.ofHours(1).toMillis();
            TxRequest debit = TxRequest.of("t-old", TxType.DEBIT, 100, hourAgo);
            ledger.transactions().apply("old", debit, null).toCompletableFuture().join();
            TestAccess.awaitOnlyOnDisk(owner, hourAgo + 1);

            TxOutcome again = new FencedWrites(owner).apply(1, "old", debit, Deadline.after(Duration.ofSeconds(30)));

            assertEquals(TxOutcome.Kind.REPLAYED, again.kind());
            assertEquals(900, again.entry().balanceAfter());
            assertEquals(900, AccountFeature.accounts(owner).get("old").balance());
        }
    }

    /** The locked path's write is answered only once the owner's disk holds it. */
    @Test
    void shouldAnswerALockedWriteOnlyOnceTheOwnersDiskHoldsIt(@TempDir Path dataDir) {
        try (TestCluster durable = TestCluster.durable("fenced-" + UUID.randomUUID(), dataDir, "m-0")) {
            HazelcastInstance owner = durable.member(0);
            TestAccess.Services ledger = TestAccess.Services.on(owner, durable.properties(0));
            ledger.accounts().open("locked", 1_000, 0).toCompletableFuture().join();
            int partition = owner.getPartitionService().getPartition("locked").getPartitionId();
            FencedWrites writer = new FencedWrites(owner);

            for (int i = 0; i < 20; i++) {
                String txId = "w-" + i;
                TxOutcome outcome = writer.apply(1, "locked", TxRequest.of(txId, TxType.DEBIT, 10, now()),
                        Deadline.after(Duration.ofSeconds(30)));

                assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
                assertTrue(MemberDisk.of(owner).read(store -> store.find(partition, "locked", txId, Long.MAX_VALUE)
                        .isPresent(), false), txId + " was answered before the owner's disk held it");
            }
            assertEquals(800, AccountFeature.accounts(owner).get("locked").balance());
        }
    }

    @Test
    void shouldWriteNothingOnceTheDeadlineHasPassed() {
        String id = open(1_000);
        Account before = AccountFeature.accounts(member).get(id);

        Refusal late = assertThrows(Refusal.class, () -> new FencedWrites(member)
                .apply(1, id, TxRequest.of("t-1", TxType.DEBIT, 100, now()), Deadline.after(Duration.ZERO)));

        assertEquals(503, Refusals.status(late));
        assertEquals(1, late.retryAfter().toSeconds());
        assertTrue(late.getMessage().contains("nothing was changed"), late.getMessage());
        assertEquals(before, AccountFeature.accounts(member).get(id));
    }

    /**
     * Maps as the locked path sees them, except that the first read through any of them runs {@code meanwhile} once
     * its value is in hand; the writes the locked path sends ({@link #counted}) and any entry processor sent through
     * the maps are counted in {@link #writes}.
     */
    private static final class Hook {

        private final Runnable meanwhile;
        private final AtomicBoolean ran = new AtomicBoolean();
        private final AtomicInteger writes = new AtomicInteger();

        Hook(Runnable meanwhile) {
            this.meanwhile = meanwhile;
        }

        /** The node's writer, counting each write it sends. */
        FencedWrites.Writer counted(HazelcastInstance hazelcast) {
            return (accountId, write) -> {
                writes.incrementAndGet();
                return BackedUpCalls.submitToKey(hazelcast, AccountFeature.ACCOUNTS, accountId, write);
            };
        }

        @SuppressWarnings("unchecked")
        <K, V> IMap<K, V> on(IMap<K, V> map) {
            return (IMap<K, V>) Proxy.newProxyInstance(IMap.class.getClassLoader(), new Class<?>[]{IMap.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("submitToKey") || method.getName().equals("executeOnKey")) {
                            writes.incrementAndGet();
                        }
                        Object result;
                        try {
                            result = method.invoke(map, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                        boolean read = method.getName().equals("get") || method.getName().equals("getAsync");
                        if (!read || !ran.compareAndSet(false, true)) {
                            return result;
                        }
                        Object value = result instanceof CompletionStage<?> stage
                                ? stage.toCompletableFuture().join() : result;
                        meanwhile.run();
                        return result instanceof CompletionStage<?> ? CompletableFuture.completedFuture(value) : value;
                    });
        }
    }
}
