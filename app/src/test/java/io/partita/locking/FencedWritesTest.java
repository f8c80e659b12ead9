package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.ApplyTransaction;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.cluster.Maps;
import io.partita.support.TestCluster;
import io.partita.web.ApiException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
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

    private static final long AT = 1_700_000_000_000L;

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

    private static String open(long balance) {
        String id = "fw-" + UUID.randomUUID().toString().substring(0, 8);
        Maps.accounts(member).set(id, Account.open(id, balance, 0));
        return id;
    }

    /** A partitioned-mode transaction: the entry processor, then the journal write its node makes before answering. */
    private static TxOutcome partitioned(String accountId, TxRequest request, boolean journal) {
        TxOutcome outcome = Maps.accounts(member).executeOnKey(accountId, new ApplyTransaction(request));
        if (journal) {
            Maps.journal(member).set(outcome.entry().key(), outcome.entry());
        }
        return outcome;
    }

    @Test
    void shouldReplayATxIdThatMovedFromTheAccountToTheJournalBetweenTheReads() {
        String id = open(1_000);
        TxRequest debit = TxRequest.of("t-1", TxType.DEBIT, 100, AT);
        // A partitioned-mode node recorded t-1 on the account and has not written its journal entry yet.
        JournalEntry first = partitioned(id, debit, false).entry();
        Hook hook = new Hook(() -> {
            // Between the locked path's two reads: the journal write lands, and two more partitioned transactions
            // drop t-1 from the account's recent entries (it may leave: the journal has it now).
            Maps.journal(member).set(first.key(), first);
            partitioned(id, TxRequest.of("c-1", TxType.CREDIT, 1, AT), true);
            partitioned(id, TxRequest.of("c-2", TxType.CREDIT, 1, AT), true);
        });
        FencedWrites writer = new FencedWrites(hook.on(Maps.accounts(member)), hook.on(Maps.journal(member)));

        TxOutcome retried = writer.apply(1, id, debit, Deadline.after(Duration.ofSeconds(30)));

        assertEquals(TxOutcome.Kind.REPLAYED, retried.kind());
        assertEquals(first, retried.entry());
        assertEquals(902, Maps.accounts(member).get(id).balance());
        assertTrue(Maps.accounts(member).get(id).recent().stream().noneMatch(e -> e.txId().equals("t-1")));
        assertEquals(0, hook.writes.get(), "decided from what it read; no write was even attempted");
    }

    @Test
    void shouldApplyANewTxIdOnceAndCarryTheFence() {
        String id = open(1_000);
        FencedWrites writer = new FencedWrites(member);

        TxOutcome outcome = writer.apply(3, id, TxRequest.of("t-1", TxType.DEBIT, 100, AT),
                Deadline.after(Duration.ofSeconds(30)));
        TxOutcome again = writer.apply(3, id, TxRequest.of("t-1", TxType.DEBIT, 100, AT),
                Deadline.after(Duration.ofSeconds(30)));

        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(TxOutcome.Kind.REPLAYED, again.kind());
        assertEquals(900, Maps.accounts(member).get(id).balance());
        assertEquals(3, Maps.accounts(member).get(id).fence());
    }

    @Test
    void shouldWriteNothingOnceTheDeadlineHasPassed() {
        String id = open(1_000);
        Account before = Maps.accounts(member).get(id);

        ApiException late = assertThrows(ApiException.class, () -> new FencedWrites(member)
                .apply(1, id, TxRequest.of("t-1", TxType.DEBIT, 100, AT), Deadline.after(Duration.ZERO)));

        assertEquals(503, late.status().getCode());
        assertEquals(1, late.retryAfter().toSeconds());
        assertTrue(late.getMessage().contains("nothing was changed"), late.getMessage());
        assertEquals(before, Maps.accounts(member).get(id));
    }

    /**
     * Maps as the locked path sees them, except that the first read through any of them runs {@code meanwhile} once
     * its value is in hand, and entry processors sent through them are counted in {@link #writes}.
     */
    private static final class Hook {

        private final Runnable meanwhile;
        private final AtomicBoolean ran = new AtomicBoolean();
        private final AtomicInteger writes = new AtomicInteger();

        Hook(Runnable meanwhile) {
            this.meanwhile = meanwhile;
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
