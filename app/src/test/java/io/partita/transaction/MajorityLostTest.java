package io.partita.transaction;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.HttpClient;
import io.micronaut.json.JsonMapper;
import io.partita.account.AccountFeature;
import io.partita.node.Continuations;
import io.partita.node.HazelcastConfigs;
import io.partita.node.Internals;
import io.partita.support.Api;
import io.partita.support.Blocking;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static io.partita.support.Problems.assertProblem;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write applied while its member heard a majority, whose answer arrives once it no longer does, is not
 * acknowledged: the other side of a split may decide the same txId anew (AccountService.bounded for a transaction,
 * BatchService for a batch). Four nodes in this JVM: a transaction and a batch on accounts that one node owns and
 * another backs up (neither of them node 0, the oldest) are applied by the owner, their answers held on the way back
 * (the continuation pool that carries every grid answer to Partita is kept busy); then the other two nodes crash, so
 * the owner and the backup hear half of the cluster without its oldest member: no majority. Released, the transaction
 * answers 503 "cut off from the majority" as problem+json with Retry-After, and each item of the batch a 503 problem,
 * though both were applied.
 */
class MajorityLostTest {

    /** Long enough that no answer is cut off by the request timeout while it is held. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    static TestNodes nodes;

    @BeforeAll
    static void startFourNodes() {
        nodes = TestNodes.start(4, Map.of("partita.request-timeout", REQUEST_TIMEOUT.toSeconds() + "s"));
    }

    @AfterAll
    static void stopNodes() {
        nodes.close();
    }

    @Test
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldWithholdTheAnswersOfATransactionAndABatchAppliedBeforeTheMajorityWasLost() throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 6);
        // The owner and the backup: two nodes other than node 0, the oldest, whose crash takes the tie-break away.
        Pair pair = ownerAndBackup("held-" + run, 3);
        HazelcastInstance owner = nodes.member(pair.owner());
        Api api = patientApi(pair.owner());
        for (String id : pair.ids()) {
            assertEquals(201, api.post("/accounts", "{\"id\":\"" + id + "\",\"balance\":100}").status());
        }
        String single = pair.ids().get(0);
        List<String> batched = pair.ids().subList(1, 3);

        ExecutorService callers = Executors.newFixedThreadPool(2);
        CompletableFuture<Api.Reply> transaction;
        CompletableFuture<Api.Reply> batch;
        try (HeldContinuations held = HeldContinuations.hold()) {
            transaction = CompletableFuture.supplyAsync(() -> api.post("/accounts/" + single + "/transactions",
                    "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":30}"), callers);
            batch = CompletableFuture.supplyAsync(() -> api.post("/transactions/batch", "["
                    + "{\"txId\":\"b-1\",\"accountId\":\"" + batched.get(0) + "\",\"type\":\"CREDIT\",\"amount\":5},"
                    + "{\"txId\":\"b-2\",\"accountId\":\"" + batched.get(1) + "\",\"type\":\"CREDIT\",\"amount\":7}]"),
                    callers);
            // Applied by the owner while it hears every member; the answers wait for the held pool.
            await("both applied by the owner").atMost(Duration.ofSeconds(30)).until(() ->
                    balance(owner, single) == 70 && balance(owner, batched.get(0)) == 105
                            && balance(owner, batched.get(1)) == 107);
            assertTrue(HazelcastConfigs.majorityPresent(owner), "the owner heard a majority when it applied them");

            for (int index = 0; index < 4; index++) {
                if (index != pair.owner() && index != pair.backup()) {
                    crash(index);
                }
            }
            await("the owner no longer hears a majority").atMost(Duration.ofSeconds(60))
                    .until(() -> !HazelcastConfigs.majorityPresent(owner));
            assertTrue(!transaction.isDone() && !batch.isDone(), "no answer left before the majority was lost");
        } finally {
            callers.shutdown();
        }

        Api.Reply withheld = transaction.get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertProblem(withheld, 503);
        assertTrue(withheld.text("detail").contains("cut off from the majority"), withheld.toString());
        assertNotNull(withheld.headers().get("Retry-After"), withheld.toString());

        Api.Reply items = batch.get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, items.status(), items.toString());
        assertEquals(List.of("b-1", "b-2"), items.list().stream().map(item -> item.get("txId")).toList(),
                items.toString());
        for (Map<String, Object> item : items.list()) {
            assertEquals(503, ((Number) item.get("httpStatus")).intValue(), item.toString());
            assertEquals(503, ((Number) item.get("status")).intValue(), item.toString());
            assertNotNull(item.get("type"), item.toString());
            assertNotNull(item.get("title"), item.toString());
            assertTrue(String.valueOf(item.get("detail")).contains("Retry it with the same txId"), item.toString());
        }
    }

    /** Nodes (by index) of which one owns and the other backs up the partitions of {@code ids}. */
    private record Pair(int owner, int backup, List<String> ids) {
    }

    /** {@code count} account ids owned by one of nodes 1 to 3 and backed up by another of them. */
    private static Pair ownerAndBackup(String prefix, int count) {
        for (int owner = 1; owner < 4; owner++) {
            for (int backup = 1; backup < 4; backup++) {
                List<String> ids = owner == backup ? List.of()
                        : accountsOwnedAndBackedUp(nodes.member(owner), nodes.member(backup), prefix, count);
                if (ids.size() == count) {
                    return new Pair(owner, backup, ids);
                }
            }
        }
        throw new AssertionError("no two of nodes 1 to 3 own and back up a partition together");
    }

    /** Node {@code index}'s API through a client that waits as long as a held answer may take. */
    private static Api patientApi(int index) {
        DefaultHttpClientConfiguration configuration = new DefaultHttpClientConfiguration();
        configuration.setReadTimeout(REQUEST_TIMEOUT.plusSeconds(30));
        JsonMapper json = nodes.servers().get(index).getApplicationContext().getBean(JsonMapper.class);
        return new Api(HttpClient.create(nodes.url(index), configuration), json);
    }

    private static long balance(HazelcastInstance member, String id) {
        return AccountFeature.accounts(member).get(id).balance();
    }

    /** Crashes node {@code index}'s member, as {@code kill -9} would; its context is closed with the others. */
    private static void crash(int index) {
        HazelcastInstance member = nodes.member(index);
        Thread crash = new Thread(() -> member.getLifecycleService().terminate(), "crash-" + index);
        crash.start();
        Blocking.run(() -> crash.join(TimeUnit.SECONDS.toMillis(60)));
        assertTrue(!crash.isAlive() && !member.getLifecycleService().isRunning(), "node " + index + " crashed");
    }

    /** Up to {@code count} account ids whose partition {@code owner} owns and {@code backup} holds the copy of. */
    private static List<String> accountsOwnedAndBackedUp(HazelcastInstance owner, HazelcastInstance backup,
                                                         String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; ids.size() < count && i < 10_000; i++) {
            String id = prefix + "-" + i;
            int partition = owner.getPartitionService().getPartition(id).getPartitionId();
            if (owner.getCluster().getLocalMember().getUuid().equals(Internals.ownerOrNull(owner, partition))
                    && Internals.backupReplicas(owner, partition, 1)
                    .contains(backup.getCluster().getLocalMember().getUuid())) {
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * Keeps every thread of the continuation pool ({@link Continuations}) busy until closed: a grid answer, once
     * Hazelcast has it, waits there before it reaches the code that answers the client.
     */
    private static final class HeldContinuations implements AutoCloseable {
        private final CountDownLatch release = new CountDownLatch(1);

        static HeldContinuations hold() {
            HeldContinuations held = new HeldContinuations();
            ForkJoinPool pool = (ForkJoinPool) Continuations.executor();
            CountDownLatch busy = new CountDownLatch(pool.getParallelism());
            for (int i = 0; i < pool.getParallelism(); i++) {
                pool.execute(() -> {
                    busy.countDown();
                    // Bounded, so that a failing test cannot keep the pool from the tests after it.
                    Blocking.run(() -> held.release.await(3, TimeUnit.MINUTES));
                });
            }
            Blocking.run(() -> assertTrue(busy.await(10, TimeUnit.SECONDS), "every continuation thread held"));
            return held;
        }

        @Override
        public void close() {
            release.countDown();
        }
    }
}
