package io.partita.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against one real node with credentials and HTTPS beside HTTP: every typed answer, authentication, TLS,
 * each route it covers, and the partition it computes against the node's own.
 */
class SingleNodeIT {

    private static final String ADMIN = "admin-" + UUID.randomUUID();
    private static final String CLIENT = "client-" + UUID.randomUUID();
    private static final String STORE_PASSWORD = "store-" + UUID.randomUUID();
    private static Path keystore;
    private static int httpsPort;
    private static Nodes nodes;
    private static PartitaClient admin;
    private static PartitaClient client;
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startNode() throws Exception {
        keystore = Files.createTempDirectory("client-it").resolve("partita.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "partita", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD)
                .redirectErrorStream(true).start();
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0,
                new String(keytool.getInputStream().readAllBytes()));
        httpsPort = Nodes.freePort();
        // HTTP for the test's own reads and HTTPS beside it (dual protocol), with the README's settings.
        nodes = new Nodes(1, Map.of("PARTITA_SECURITY_ADMIN_PASSWORD", ADMIN,
                "PARTITA_SECURITY_CLIENT_PASSWORD", CLIENT,
                "MICRONAUT_SERVER_DUAL_PROTOCOL", "true",
                "MICRONAUT_SERVER_SSL_ENABLED", "true",
                "MICRONAUT_SERVER_SSL_PORT", String.valueOf(httpsPort),
                "MICRONAUT_SSL_KEY_STORE_PATH", "file:" + keystore,
                "MICRONAUT_SSL_KEY_STORE_PASSWORD", STORE_PASSWORD,
                "MICRONAUT_SSL_KEY_STORE_TYPE", "PKCS12"));
        admin = PartitaClient.builder(nodes.url(0)).credentials("admin", ADMIN).build();
        client = PartitaClient.builder(nodes.url(0)).credentials("client", CLIENT).build();
    }

    @AfterAll
    static void stopNode() {
        if (admin != null) {
            admin.close();
            client.close();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void shouldComputeTheSamePartitionAsTheNodeForEveryAccount() {
        for (int i = 0; i < 150; i++) {
            String id = run + "-p" + i + (i % 5 == 0 ? "-Zz.:_" : "");
            Account opened = admin.openAccount(id, 0, 0);
            assertEquals(opened.partition(), PartitionHash.partitionOf(id, 271), id);
        }
    }

    @Test
    void shouldAnswerAppliedRejectedAndReplayedAsTypedResults() {
        String id = run + "-a";
        admin.openAccount(id, 100, 50);

        TxResult applied = client.debit(id, 120);
        assertTrue(applied.applied());
        assertEquals(-20, applied.balance());
        assertFalse(applied.replayed());

        TxResult rejected = client.post(id, TxType.DEBIT, 31, "rej-" + run);
        assertTrue(rejected.rejected());
        assertEquals(-20, rejected.balance());
        assertEquals("INSUFFICIENT_FUNDS", rejected.reason());

        TxResult replay = client.post(id, TxType.DEBIT, 31, "rej-" + run);
        assertTrue(replay.replayed());
        assertTrue(replay.rejected());
        assertEquals(-20, replay.balance());
        assertEquals(-20, client.account(id).balance());
    }

    @Test
    void shouldThrowTheTypeOfEachRefusal() {
        String id = run + "-r";
        admin.openAccount(id, 100, 0);
        client.post(id, TxType.CREDIT, 5, "once-" + run);

        IdReusedException reused = assertThrows(IdReusedException.class,
                () -> client.post(id, TxType.CREDIT, 6, "once-" + run));
        assertEquals(409, reused.status());
        assertEquals(404, assertThrows(NotFoundException.class,
                () -> client.debit(run + "-nobody", 1)).status());
        assertThrows(NotFoundException.class, () -> client.account(run + "-nobody"));
        assertEquals(409, assertThrows(AlreadyExistsException.class, () -> admin.openAccount(id, 0, 0)).status());
        PartitaException invalid = assertThrows(PartitaException.class, () -> client.post(id, TxType.DEBIT, 0,
                PartitaClient.newTxId()));
        assertEquals(400, invalid.status());
        assertEquals(105, client.account(id).balance(), "no refusal changed the balance");
    }

    @Test
    void shouldRefuseWithoutCredentialsAndKeepAdminRoutesFromTheClientUser() {
        String id = run + "-auth";
        try (PartitaClient anonymous = PartitaClient.builder(nodes.url(0)).build();
             PartitaClient wrong = PartitaClient.builder(nodes.url(0)).credentials("client", "nope").build()) {
            assertEquals(401, assertThrows(AuthenticationException.class, () -> anonymous.account(id)).status());
            assertEquals(401, assertThrows(AuthenticationException.class, () -> wrong.debit(id, 1)).status());
        }
        assertEquals(403, assertThrows(AuthenticationException.class, () -> client.openAccount(id, 0, 0)).status());
        admin.openAccount(id, 7, 0);
        assertEquals(7, client.account(id).balance());
    }

    @Test
    void shouldTransferBatchAndReadTheJournal() throws Exception {
        String from = run + "-from";
        String to = run + "-to";
        admin.openAccount(from, 100, 0);
        admin.openAccount(to, 0, 0);

        TransferResult moved = client.transfer("tr-" + run, from, to, 60);
        assertTrue(moved.completed());
        assertEquals(40L, moved.fromBalance());
        assertEquals(60L, moved.toBalance());
        assertTrue(client.transfer("tr-" + run, from, to, 60).replayed());
        assertFalse(client.transfer("tr2-" + run, from, to, 41).completed(), "the source lacks 41");

        List<BatchItem> items = new ArrayList<>();
        items.add(BatchItem.of(from, TxType.CREDIT, 10));
        items.add(BatchItem.of(to, TxType.DEBIT, 100));
        items.add(BatchItem.of(run + "-nobody", TxType.CREDIT, 1));
        List<BatchOutcome> outcomes = client.batch(items);
        assertEquals(3, outcomes.size());
        assertTrue(outcomes.get(0).result().applied());
        assertEquals(50, outcomes.get(0).result().balance());
        assertTrue(outcomes.get(1).result().rejected());
        assertTrue(outcomes.get(2).error() instanceof NotFoundException);
        assertNull(outcomes.get(2).result());

        CompletableFuture<TxResult> async = client.postAsync(to, TxType.CREDIT, 1, PartitaClient.newTxId());
        assertEquals(61, async.get().balance());

        List<JournalLine> journal = client.journal(to, 10);
        assertEquals(async.get().txId(), journal.get(0).txId(), "newest first");
        assertEquals("CREDIT", journal.get(0).type());
        assertTrue(journal.stream().anyMatch(line -> line.type().startsWith("TRANSFER") && line.amount() == 60));
        assertTrue(journal.stream().anyMatch(line -> "REJECTED".equals(line.status()) && line.amount() == 100));
    }

    @Test
    void shouldGatherConcurrentCallsIntoBatchesAndAnswerAndApplyEachExactlyOnce() throws Exception {
        String poor = run + "-g-poor";
        String rich = run + "-g-rich";
        admin.openAccount(poor, 10, 0);
        admin.openAccount(rich, 100, 0);
        List<String> accounts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            accounts.add(run + "-g" + i);
            admin.openAccount(accounts.get(i), 1_000_000, 0);
        }
        Queue<Integer> batchSizes = new ConcurrentLinkedQueue<>();
        ClientListener sizes = new ClientListener() {
            @Override
            public void onCoalesced(URI node, int items) {
                batchSizes.add(items);
            }
        };
        try (PartitaClient gathering = PartitaClient.builder(nodes.url(0)).credentials("client", CLIENT)
                .coalesce(Duration.ofMillis(1), 256).listener(sizes).build()) {
            // Typed answers, gathered: sent at once, they go as one batch, each answered as its single call.
            String txId = PartitaClient.newTxId();
            assertEquals(95, gathering.post(rich, TxType.DEBIT, 5, txId).balance());
            CompletableFuture<TxResult> replay = gathering.postAsync(rich, TxType.DEBIT, 5, txId);
            CompletableFuture<TxResult> reused = gathering.postAsync(rich, TxType.DEBIT, 6, txId);
            CompletableFuture<TxResult> missing = gathering.postAsync(run + "-g-nobody", TxType.CREDIT, 1,
                    PartitaClient.newTxId());
            CompletableFuture<TxResult> rejected = gathering.postAsync(poor, TxType.DEBIT, 11, PartitaClient.newTxId());
            assertTrue(replay.get(30, TimeUnit.SECONDS).replayed());
            assertEquals(95, replay.get().balance());
            assertTrue(assertThrows(ExecutionException.class, reused::get).getCause() instanceof IdReusedException);
            assertTrue(assertThrows(ExecutionException.class, missing::get).getCause() instanceof NotFoundException);
            assertEquals("INSUFFICIENT_FUNDS", rejected.get().reason());
            assertEquals(10, rejected.get().balance());
            assertEquals(95, client.account(rich).balance());

            long singlesBefore = nodes.transactionsServed(0);
            long batchesBefore = nodes.batchesServed(0);
            batchSizes.clear();
            // 8 callers with 8 calls each in flight, on 6 accounts.
            Callers callers = new Callers(List.of(gathering), accounts, 8, 8, 0).start();
            callers.awaitMore(1_200, Duration.ofSeconds(60));
            callers.stop();

            callers.assertEachAcknowledgedOnce(client, 1_000_000);
            long requests = nodes.transactionsServed(0) - singlesBefore
                    + nodes.batchesServed(0) - batchesBefore;
            int largest = batchSizes.stream().mapToInt(Integer::intValue).max().orElse(0);
            assertTrue(largest > 1 && requests < callers.answered(), callers.answered() + " calls in " + requests
                    + " requests, batches of up to " + largest);
            System.out.println("SingleNodeIT: " + callers.answered() + " gathered calls in " + requests
                    + " requests, " + batchSizes.size() + " batches of up to " + largest);
        }
    }

    @Test
    void shouldCallOverTlsTrustingTheNodesCertificateAndRefuseAnUntrustedOne() throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            trusted.load(in, STORE_PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        String https = "https://127.0.0.1:" + httpsPort;
        String id = run + "-tls";
        admin.openAccount(id, 10, 0);
        // Not partition-aware: the table's httpUrl is the node's plain HTTP one (PARTITA_HTTP_URL, set by Nodes).
        try (PartitaClient secure = PartitaClient.builder(https).partitionAware(false).tls(context)
                .credentials("client", CLIENT).build();
             PartitaClient untrusting = PartitaClient.builder(https).partitionAware(false)
                     .credentials("client", CLIENT).build()) {
            assertEquals(15, secure.credit(id, 5).balance());
            assertEquals(15, secure.account(id).balance());

            // Refused by its own TLS check before sending anything: not retried as an unknown outcome.
            TlsException refused = assertThrows(TlsException.class, () -> untrusting.credit(id, 5));
            assertTrue(refused.getCause() instanceof SSLHandshakeException, String.valueOf(refused.getCause()));
        }
        assertEquals(15, client.account(id).balance(), "the untrusted client changed nothing");
    }

    @Test
    void shouldStartAnAuditAndFollowItToItsEnd() {
        String id = run + "-audited";
        admin.openAccount(id, 10, 0);
        client.credit(id, 5);
        assertEquals(403, assertThrows(AuthenticationException.class, () -> client.startAudit(null)).status());

        JobStatus started = admin.startAudit("audit-" + run);
        assertEquals("audit-" + run, started.id());
        assertEquals("AUDIT", started.type());
        assertEquals(409, assertThrows(AlreadyExistsException.class, () -> admin.startAudit("audit-" + run)).status());

        await().atMost(Duration.ofSeconds(60)).until(() -> admin.job("audit-" + run).finished());
        JobStatus done = admin.job("audit-" + run);
        assertEquals("COMPLETED", done.state(), String.valueOf(done.results()));
        assertEquals(271, done.partitionsDone());
        assertEquals(0L, done.count("mismatches"));
        assertTrue(done.accountsProcessed() >= 1);
        assertThrows(NotFoundException.class, () -> admin.job("no-such-job-" + run));
    }

    @Test
    void shouldJoinALeaseGroupCheckFencesRenewAndLoseTheLeaseAfterLeaving() {
        String group = run + "-workers";
        admin.createLeaseGroup(group, 4, 30);
        admin.createLeaseGroup(group, 4, 30);

        WorkerLease first = client.joinLeaseGroup(group);
        assertEquals(4, first.shards().size(), "the only worker holds every shard");
        WorkerLease.Shard shard = first.shards().get(0);
        assertTrue(client.checkFence(group, shard.shard(), shard.token()).current());
        assertEquals(first.workerId(), client.renewLease(group, first.workerId()).workerId());

        client.leaveLeaseGroup(group, first.workerId());
        FenceCheck stale = client.checkFence(group, shard.shard(), shard.token());
        assertFalse(stale.current(), "a left worker's token is no longer its shard's");
        assertEquals(410, assertThrows(LeaseLostException.class,
                () -> client.renewLease(group, first.workerId())).status());
        assertThrows(NotFoundException.class, () -> client.joinLeaseGroup(run + "-no-group"));
    }
}
