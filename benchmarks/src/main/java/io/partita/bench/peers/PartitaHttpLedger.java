package io.partita.bench.peers;

import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;
import io.partita.client.JournalLine;
import io.partita.client.PartitaClient;
import io.partita.client.TxResult;
import io.partita.client.TxType;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * Partita over HTTP: {@code nodes} node processes ({@link NodeProcesses}), each transaction one
 * {@code POST /accounts/{id}/transactions} from the client thread through Partita's Java client
 * ({@code io.partita.client.PartitaClient}), waiting for its answer: applied, rejected, replayed. With {@code routed}
 * the client sends each call to the owner of its account's partition; without, client thread {@code i} calls node
 * {@code i mod nodes}, which forwards to the owner (how every call went before the client existed). The client
 * retries an unknown outcome (503, connection error) with the same txId; the answer to a retried call is judged by
 * its figures, not its replay header.
 *
 * <p>Before the client, this system sent its calls with the JDK's {@code HttpClient}, which on 2 cores spent more
 * CPU per call than the node (see benchmarks/results/http-client-20261126.txt); the peers table of 2026-11-25
 * measured that client, not the node.
 *
 * <p>Cores: the node processes'. The correctness check reads the nodes back: the accounts' count and balances with
 * {@code POST /sql}, the journal's rows, rejections and applied amounts from each touched account's history through
 * the client (on a durable node the journal map, which SQL reads, holds only its last seconds), and per account with
 * the nodes' own AUDIT job (balance equal to opening plus the account's applied journal lines).
 */
final class PartitaHttpLedger implements PeerLedger {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration JOURNAL_TIMEOUT = Duration.ofMinutes(2);
    private static final int MAX_ATTEMPTS = 10;
    private static final int HISTORY_PAGE = 1_000;

    private final int size;
    private final boolean routed;
    private final Path jar;
    private final Path logs;
    private final LongAdder retries = new LongAdder();
    private final JsonMapper json = JsonMapper.createDefault();
    private NodeProcesses nodes;
    private ExecutorService httpThreads;
    private HttpClient http;
    private PartitaClient routedClient;
    private final List<PartitaClient> nodeClients = new ArrayList<>();
    private long opening;

    PartitaHttpLedger(int size, boolean routed, Path jar, Path logs) {
        this.size = size;
        this.routed = routed;
        this.jar = jar;
        this.logs = logs;
    }

    @Override
    public void open(int accounts, long opening, long overdraft) throws Exception {
        this.opening = opening;
        nodes = NodeProcesses.start(size, jar, logs);
        // The client's own threads for its selector and callbacks: on 2 cores the JDK's common pool has one thread.
        httpThreads = Executors.newFixedThreadPool(4, runnable -> {
            Thread thread = new Thread(runnable, "peers-http");
            thread.setDaemon(true);
            return thread;
        });
        // The check's reads (SQL, the AUDIT job, the cluster view) are off the measured path; they keep the JDK client.
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String[] urls = nodes.urls().stream().map(URI::toString).toArray(String[]::new);
        routedClient = PartitaClient.builder(urls).attemptTimeout(TIMEOUT).retryBudget(Duration.ofMinutes(1))
                .executor(httpThreads).build();
        for (String url : urls) {
            nodeClients.add(PartitaClient.builder(url).partitionAware(false).attemptTimeout(TIMEOUT)
                    .retryBudget(Duration.ofMinutes(1)).executor(httpThreads).build());
        }
        ExecutorService openers = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> opened = new ArrayList<>();
            for (int worker = 0; worker < 16; worker++) {
                int first = worker;
                opened.add(openers.submit(() -> {
                    for (int i = first; i < accounts; i += 16) {
                        // Retried within the client's budget; a 409 after a lost answer reads the account back.
                        routedClient.openAccount(PartitaLedger.accountId(i), opening, overdraft);
                    }
                    return null;
                }));
            }
            for (Future<?> future : opened) {
                future.get();
            }
        } finally {
            openers.shutdownNow();
        }
    }

    private HttpResponse<String> send(URI node, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(node.resolve(path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public Session session(int client) {
        PartitaClient calls = routed ? routedClient : nodeClients.get(client % size);
        return new Session() {
            @Override
            public Answer post(Tx tx) {
                TxResult result = calls.post(PartitaLedger.accountId(tx.account()),
                        tx.amount() < 0 ? TxType.DEBIT : TxType.CREDIT, Math.abs(tx.amount()), tx.id());
                if (result.attempts() > 1) {
                    retries.add(result.attempts() - 1);
                }
                return answer(result);
            }

            @Override
            public long retries() {
                return retries.sum();
            }

            @Override
            public void close() {
            }
        };
    }

    /** The client's answer: applied or rejected, with the balance; after a retry the replay header says nothing. */
    static Answer answer(TxResult result) {
        // After a retry the header says nothing: the first attempt may have been recorded before its 503.
        Answer.Replay replay = result.attempts() > 1 ? Answer.Replay.UNSAID
                : result.replayed() ? Answer.Replay.REPLAYED : Answer.Replay.FIRST;
        return new Answer(result.applied(), result.balance(), replay);
    }

    @Override
    public Set<Long> serverPids() {
        Set<Long> pids = new HashSet<>();
        for (long pid : nodes.pids()) {
            pids.add(pid);
            ProcessHandle.of(pid).ifPresent(process -> process.descendants().forEach(child -> pids.add(child.pid())));
        }
        return pids;
    }

    @Override
    public ServerState state() throws Exception {
        // The journal over the whole retention is each account's history (GET /accounts/{id}/transactions, which
        // reads the owner's disk too): the journal map, and with it SQL, holds only its last seconds on a durable
        // node. Every account a transaction reached has a version above 0.
        List<JsonNode> touched = sql("SELECT \"id\" FROM \"accounts\" WHERE \"version\" > 0");
        long rows = 0;
        long rejected = 0;
        long appliedSum = 0;
        for (JsonNode row : touched) {
            String id = row.get(0).getStringValue();
            long before = Long.MAX_VALUE;
            while (true) {
                List<JournalLine> page = routedClient.journal(id, before, HISTORY_PAGE);
                for (JournalLine line : page) {
                    rows++;
                    if ("REJECTED".equals(line.status())) {
                        rejected++;
                    } else if ("APPLIED".equals(line.status())) {
                        appliedSum += "DEBIT".equals(line.type()) ? -line.amount() : line.amount();
                    }
                    before = Math.min(before, line.seq());
                }
                // The end: an empty page, or seq 1 (a page covers HISTORY_PAGE seqs: shorter where seqs are missing).
                if (page.isEmpty() || before <= 1) {
                    break;
                }
            }
        }
        JsonNode totals = sql("SELECT COUNT(*), COALESCE(SUM(\"balance\"), 0) FROM \"accounts\"").get(0);
        long accounts = totals.get(0).getLongValue();
        long balances = totals.get(1).getLongValue();
        // Per account (balance = opening + its applied journal lines): the node's own AUDIT job. /sql refuses a
        // GROUP BY over accounts (it could hold one group per account in a node's memory).
        long mismatched = audit();
        return new ServerState(accounts, balances, accounts * opening, rows, rejected, appliedSum, mismatched);
    }

    /** Runs an AUDIT job on node 1 and answers its count of accounts whose balance disagrees with their journal. */
    private long audit() throws IOException, InterruptedException {
        HttpResponse<String> started = send(nodes.urls().get(0), "/jobs",
                "{\"type\":\"AUDIT\",\"concurrent\":true}");
        if (started.statusCode() != 202) {
            throw new IllegalStateException("POST /jobs AUDIT answered " + started.statusCode() + " " + started.body());
        }
        String id = json.readValue(started.body(), JsonNode.class).get("id").getStringValue();
        long deadline = System.nanoTime() + JOURNAL_TIMEOUT.toNanos();
        while (true) {
            HttpResponse<String> job = http.send(HttpRequest.newBuilder(nodes.urls().get(0).resolve("/jobs/" + id))
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode view = json.readValue(job.body(), JsonNode.class);
            String state = view.get("state").getStringValue();
            if ("COMPLETED".equals(state)) {
                return view.get("mismatches").getLongValue();
            }
            if (!"RUNNING".equals(state) || System.nanoTime() > deadline) {
                throw new IllegalStateException("AUDIT job " + id + " ended " + job.body());
            }
            Thread.sleep(200);
        }
    }

    /** The rows of a {@code POST /sql} query on node 1; throws unless it answered 200 with every row. */
    private List<JsonNode> sql(String query) throws IOException, InterruptedException {
        HttpResponse<String> response = send(nodes.urls().get(0), "/sql", json.writeValueAsString(
                Map.of("sql", query)));
        if (response.statusCode() != 200) {
            throw new IllegalStateException(query + " answered " + response.statusCode() + " " + response.body());
        }
        JsonNode answer = json.readValue(response.body(), JsonNode.class);
        if (answer.get("truncated") != null && answer.get("truncated").getBooleanValue()) {
            throw new IllegalStateException(query + " was truncated at " + answer.get("maxRows"));
        }
        List<JsonNode> rows = new ArrayList<>();
        answer.get("rows").values().forEach(rows::add);
        return rows;
    }

    @Override
    public long memberOperations() throws IOException, InterruptedException {
        long sum = 0;
        for (URI node : nodes.urls()) {
            String metrics = http.send(HttpRequest.newBuilder(node.resolve("/prometheus")).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            for (String line : metrics.split("\n")) {
                if (line.startsWith("partita_member_operations_received_total ")) {
                    sum += (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
                }
            }
        }
        return sum;
    }

    @Override
    public String describe() throws IOException, InterruptedException {
        HttpResponse<String> cluster = http.send(HttpRequest.newBuilder(nodes.urls().get(0).resolve("/cluster"))
                .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode view = json.readValue(cluster.body(), JsonNode.class);
        return "Partita over HTTP, " + view.get("members").size() + " node process(es) of " + jar + ", CP "
                + view.get("cp").get("mode").getStringValue() + ", Partita's Java client, "
                + (routed ? "each call to its account's owner" : "client thread i to node i mod n");
    }

    @Override
    public void close() {
        if (routedClient != null) {
            routedClient.close();
        }
        nodeClients.forEach(PartitaClient::close);
        if (nodes != null) {
            nodes.close();
        }
        if (httpThreads != null) {
            httpThreads.shutdownNow();
        }
    }
}
