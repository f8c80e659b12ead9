package io.partita.transfer;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPGroup;
import com.hazelcast.cp.CPGroupId;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.raft.impl.RaftNodeImpl;
import com.hazelcast.cp.session.CPSession;
import com.hazelcast.cp.session.CPSessionManagementService;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.locking.AccountLocks;
import io.partita.locking.Held;
import io.partita.node.MembershipNotice;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.support.TestNodes;
import io.partita.transaction.TransactionService;
import io.partita.web.Refusals;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Locks and transfers on whole nodes whose CP Subsystem runs Raft on three CP members. One cluster serves every test
 * (Raft takes a while to start), in order: the stale fence, the mixed load, recovery of a stranded transfer, and last
 * the crashes, which change the cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LockingAndTransfersClusterTest {

    /** Threads for work that blocks (locks, awaits): never the common pool, which serves Hazelcast's callbacks. */
    private static final ExecutorService BLOCKING = Executors.newCachedThreadPool();

    private static final Logger LOG = LoggerFactory.getLogger(LockingAndTransfersClusterTest.class);

    private TestNodes nodes;

    @BeforeAll
    void startThreeNodesWithRaft() {
        nodes = TestNodes.start(3, Map.of(
                "partita.cp.members", 3,
                "partita.cp.missing-member-removal", "10s",
                // Longer than the test's wait for the crash victim to be stuck on a lock, on a busy machine too.
                "partita.cp.lock-timeout", "8s",
                "partita.transfers.recovery-after", "2s"));
        await().atMost(Duration.ofSeconds(60)).until(() -> nodes.servers().stream().allMatch(server ->
                server.getApplicationContext().getBean(HazelcastInstance.class).getCPSubsystem()
                        .getCPSubsystemManagementService().isDiscoveryCompleted()));
    }

    @AfterAll
    void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private <T> T bean(int node, Class<T> type) {
        return nodes.servers().get(node).getApplicationContext().getBean(type);
    }

    private void open(String id, long balance) {
        bean(0, AccountService.class).open(id, balance, 0).toCompletableFuture().join();
    }

    private Account account(String id) {
        return AccountFeature.accounts(nodes.member(0)).get(id);
    }

    @Test
    @Order(1)
    void shouldReportRaftWithThreeCpMembers() {
        try (HttpClient http = nodes.client(2)) {
            Map<String, Object> cluster = http.toBlocking().retrieve(HttpRequest.GET("/cluster"),
                    Argument.mapOf(String.class, Object.class));
            assertEquals(Map.of("mode", "RAFT", "members", 3, "configured", 3, "available", true, "local", true),
                    cluster.get("cp"));
        }
    }

    @Test
    @Order(2)
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldRefuseTheWriteOfAHolderWhoseLockPassedToANewerHolder() throws Exception {
        open("fence-1", 1_000);
        HazelcastInstance first = nodes.member(0);
        Held stale = bean(0, AccountLocks.class).lock("fence-1");
        long staleFence = stale.fence("fence-1");

        // The first holder pauses past its session: the CP group closes the session and frees its locks.
        closeSessionOf(first);
        long newerFence = CompletableFuture.supplyAsync(() -> {
            try (Held newer = bean(1, AccountLocks.class).lock("fence-1")) {
                TxOutcome outcome = newer.apply("fence-1", TxRequest.of("newer", TxType.CREDIT, 100, 1L));
                assertEquals(TxStatus.APPLIED, outcome.entry().status());
                return newer.fence("fence-1");
            }
        }, BLOCKING).get(1, TimeUnit.MINUTES);

        Refusal refused = assertThrows(Refusal.class,
                () -> stale.apply("fence-1", TxRequest.of("stale", TxType.DEBIT, 30, 1L)));
        stale.close();

        assertTrue(newerFence > staleFence, newerFence + " > " + staleFence);
        assertEquals(503, Refusals.status(refused));
        Account now = account("fence-1");
        assertEquals(1_100, now.balance());
        assertEquals(newerFence, now.fence());
        assertEquals(null, now.recorded("fence-1", "stale"));
    }

    private static void closeSessionOf(HazelcastInstance member) throws Exception {
        CPSessionManagementService sessions = member.getCPSubsystem().getCPSessionManagementService();
        Address address = member.getCluster().getLocalMember().getAddress();
        Collection<CPSession> all = sessions.getAllSessions(CPGroup.DEFAULT_GROUP_NAME).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        for (CPSession session : all) {
            if (session.endpoint().equals(address)) {
                assertTrue(sessions.forceCloseSession(CPGroup.DEFAULT_GROUP_NAME, session.id())
                        .toCompletableFuture().get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    @Order(3)
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldConserveMoneyAndApplyEachIdOnceUnderMixedModesOnHotAccounts() throws Exception {
        TransferLoad load = new TransferLoad(nodes, "mixed", 10, 4_000, 7, false);
        load.openAccounts();
        load.run(24);
        load.awaitTransfersFinished(Duration.ofSeconds(30));
        load.verify();
        LOG.info("{}", load.summary());
    }

    @Test
    @Order(4)
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldCompleteTransfersStrandedBeforeAndAfterTheDebit() {
        open("stranded-a", 1_000);
        open("stranded-b", 0);
        AccountService accounts = bean(1, AccountService.class);
        long longAgo = System.currentTimeMillis() - 60_000;
        // Two coordinators that died: one right after recording its transfer, one right after the debit.
        Transfer pending = Transfer.begin(new TransferRequest("s-1", "stranded-a", "stranded-b", 100), longAgo,
                "a-member-that-died");
        Transfer debited = Transfer.begin(new TransferRequest("s-2", "stranded-a", "stranded-b", 250), longAgo,
                "a-member-that-died");
        TransferFeature.transfers(nodes.member(1)).executeOnKey(pending.key(), new BeginTransfer(pending));
        TransferFeature.transfers(nodes.member(1)).executeOnKey(debited.key(), new BeginTransfer(debited));
        assertEquals(TxStatus.APPLIED, bean(1, TransactionService.class).apply("stranded-a", debited.debit(),
                ProcessingMode.PARTITIONED)
                .toCompletableFuture().join().entry().status());

        await().atMost(Duration.ofSeconds(60)).until(() ->
                TransferFeature.transfers(nodes.member(0)).get(pending.key()).state() == TransferState.COMPLETED
                        && TransferFeature.transfers(nodes.member(0)).get(debited.key())
                                .state() == TransferState.COMPLETED);

        assertEquals(650, account("stranded-a").balance());
        assertEquals(350, account("stranded-b").balance());
        List<JournalEntry> credits = accounts.journal("stranded-b", 100);
        assertEquals(2, credits.size());
        TransferService.Result retry = bean(2, TransferService.class).transfer(
                new TransferRequest("s-2", "stranded-a", "stranded-b", 250), ProcessingMode.LOCKED);
        assertTrue(retry.replayed());
        assertEquals(TransferState.COMPLETED, retry.transfer().state());
        assertEquals(350, account("stranded-b").balance());
    }

    @Test
    @Order(5)
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    @SuppressWarnings("try") // the resource is held for the block's length, not used in it
    void shouldConvergeWhenACpMemberCrashesMidRunAndSurviveASecondCrashAfterPromotion() throws Exception {
        nodes.addNode();
        nodes.awaitSize(4);
        HazelcastInstance spareMember = nodes.member(3);
        Address spare = spareMember.getCluster().getLocalMember().getAddress();
        TransferLoad load = new TransferLoad(nodes, "crash", 10, 2_000, 11, true);
        load.openAccounts();
        open("held-a", 1_000);
        open("held-z", 0);
        TransferRequest heldTransfer = new TransferRequest("held-x", "held-a", "held-z", 100);
        TransferService victim = bean(1, TransferService.class);
        long recoveredBefore = recovered();

        // Mid-run, the victim node coordinates a locked transfer: it holds the lock of held-a and waits for the lock
        // of held-z, which this test holds. It crashes right then, holding a lock.
        CompletableFuture<Void> crash = CompletableFuture.runAsync(() -> {
            await().atMost(Duration.ofMinutes(3)).until(() -> load.done() >= load.total() / 3);
            try (Held z = bean(0, AccountLocks.class).lock("held-z")) {
                CompletableFuture.runAsync(() -> victim.transfer(heldTransfer, ProcessingMode.LOCKED), BLOCKING);
                await().atMost(Duration.ofSeconds(6)).until(() -> nodes.member(0).getCPSubsystem()
                        .getLock(AccountLocks.lockName("held-a")).isLocked());
                nodes.kill(1);
            }
        }, BLOCKING);
        load.run(24);
        crash.get(1, TimeUnit.MINUTES);
        nodes.awaitSize(3);
        load.awaitTransfersFinished(Duration.ofSeconds(90));
        load.verify();
        LOG.info("{}; recovery passes finished {} transfers", load.summary(), recovered() - recoveredBefore);

        // The dead holder's lock does not hang anyone for ever (its session expires), and the client's retry of the
        // transfer it was running applies it exactly once.
        TransferService survivor = bean(0, TransferService.class);
        TransferService.Result retried = await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> survivor.transfer(heldTransfer, ProcessingMode.LOCKED), result -> true);
        assertEquals(TransferState.COMPLETED, retried.transfer().state());
        assertTrue(bean(1, TransferService.class).transfer(heldTransfer, ProcessingMode.PARTITIONED).replayed());
        assertEquals(900, account("held-a").balance());
        assertEquals(100, account("held-z").balance());

        // The crashed CP member is removed and the spare AP member promoted in its place...
        await().atMost(Duration.ofSeconds(180)).until(() -> cpMembers(nodes.member(0)).stream()
                .anyMatch(member -> member.getAddress().equals(spare)) && cpMembers(nodes.member(0)).size() == 3);
        // ...and added to the Raft groups that lost a member (promotion first, group membership a moment later)...
        await().atMost(Duration.ofSeconds(180)).ignoreExceptions().until(() ->
                groupHoldsSpare(nodes.member(0), CPGroup.DEFAULT_GROUP_NAME, spare)
                        && groupHoldsSpare(nodes.member(0), CPGroup.METADATA_CP_GROUP_NAME, spare)
                        && knowsItsMembership(spareMember, CPGroup.DEFAULT_GROUP_NAME)
                        && knowsItsMembership(spareMember, CPGroup.METADATA_CP_GROUP_NAME));
        // ...so a second CP member crash still leaves a majority: locked transactions go on.
        open("after-second-crash", 100);
        nodes.kill(indexOfCpMemberOtherThan(spare));
        // Two of four members have crashed: the survivors cannot tell that from a network split, and keep-majority
        // stops a half without the oldest member, so the operator declares the crashed members gone.
        await().atMost(Duration.ofSeconds(60)).until(() -> nodes.member(0).getCluster().getMembers().size() == 2);
        MembershipNotice.forgetMissing(nodes.member(0), "test");
        TxRequest debit = TxRequest.of("t-1", TxType.DEBIT, 40, System.currentTimeMillis());
        // Raft elects a new leader within seconds on an idle machine; a loaded 2-core one can take much longer.
        await().atMost(Duration.ofSeconds(180)).ignoreExceptions().until(() ->
                bean(0, TransactionService.class).apply("after-second-crash", debit, ProcessingMode.LOCKED)
                        .toCompletableFuture().get(15, TimeUnit.SECONDS).entry().balanceAfter() == 60);
        assertEquals(60, account("after-second-crash").balance());
        assertTrue(account("after-second-crash").fence() > 0);
    }

    /** Transfers finished by the recovery passes of the nodes alive now. */
    private long recovered() {
        return nodes.servers().stream()
                .mapToLong(server -> server.getApplicationContext().getBean(TransferRecovery.class).recovered())
                .sum();
    }

    private static boolean groupHoldsSpare(HazelcastInstance member, String group, Address spare) throws Exception {
        Collection<CPMember> members = member.getCPSubsystem().getCPSubsystemManagementService()
                .getCPGroup(group).toCompletableFuture().get(10, TimeUnit.SECONDS).members();
        return members.size() == 3 && members.stream().anyMatch(m -> m.getAddress().equals(spare));
    }

    /**
     * Whether the promoted member's own Raft node of the group has applied the change that added it. The group lists
     * it as soon as the leader and one other member commit that change; until the new member has it too, it cannot
     * vote, and losing the leader then would leave the survivor without a majority. Public API shows only the
     * group's list, so this reads Hazelcast's internal Raft state.
     */
    private static boolean knowsItsMembership(HazelcastInstance member, String group) throws Exception {
        CPGroupId id = member.getCPSubsystem().getCPSubsystemManagementService().getCPGroup(group)
                .toCompletableFuture().get(10, TimeUnit.SECONDS).id();
        RaftService raft = ((HazelcastInstanceProxy) member).getOriginal().node.getNodeEngine()
                .getService(RaftService.SERVICE_NAME);
        RaftNodeImpl node = (RaftNodeImpl) raft.getRaftNode(id);
        return node != null && node.state().members().size() == 3
                && node.state().members().contains(node.getLocalMember());
    }

    private static Collection<CPMember> cpMembers(HazelcastInstance member) throws Exception {
        return member.getCPSubsystem().getCPSubsystemManagementService().getCPMembers().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private int indexOfCpMemberOtherThan(Address spare) {
        for (int i = 0; i < nodes.servers().size(); i++) {
            HazelcastInstance member = nodes.member(i);
            if (member.getCPSubsystem().getLocalCPMember() != null
                    && !member.getCluster().getLocalMember().getAddress().equals(spare)) {
                return i;
            }
        }
        throw new AssertionError("no CP member to crash");
    }
}
