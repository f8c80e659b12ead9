package io.partita.bench.peers;

import io.micronaut.json.JsonMapper;
import io.micronaut.json.tree.JsonNode;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Partita over HTTP: {@code nodes} node processes ({@link NodeProcesses}), each transaction one
 * {@code POST /accounts/{id}/transactions} (API.md) from the client thread, waiting for its answer: 200 applied,
 * 422 rejected, {@code Idempotent-Replayed: true} on a replay. Client thread {@code i} calls node {@code i mod nodes}
 * over a kept-alive HTTP/1.1 connection of one shared JDK client. A 503 or 429 is re-sent at once with the same
 * body (the same id); the answer to a retry is judged by its figures, not its replay header.
 *
 * <p>Cores: the node processes'. The correctness check reads the nodes back with {@code POST /sql} (the accounts'
 * count and balances, the journal's rows, rejections and applied amounts) once the journal holds one row per
 * recorded transaction (the sum of the accounts' versions), and per account with the nodes' own AUDIT job (balance
 * equal to opening plus the account's applied journal lines).
 */
final class PartitaHttpLedger implements PeerLedger {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration JOURNAL_TIMEOUT = Duration.ofMinutes(2);
    private static final int MAX_ATTEMPTS = 10;
    private static final Pattern BALANCE = Pattern.compile("\"balance\"\\s*:\\s*(-?\\d+)");

    private final int size;
    private final Path jar;
    private final Path logs;
    private final LongAdder retries = new LongAdder();
    private final JsonMapper json = JsonMapper.createDefault();
    private NodeProcesses nodes;
    private ExecutorService httpThreads;
    private HttpClient http;
    private long opening;

    PartitaHttpLedger(int size, Path jar, Path logs) {
        this.size = size;
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
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        ExecutorService openers = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> opened = new ArrayList<>();
            for (int worker = 0; worker < 16; worker++) {
                int first = worker;
                opened.add(openers.submit(() -> {
                    for (int i = first; i < accounts; i += 16) {
                        openAccount(nodes.urls().get(i % size), "{\"id\":\"" + PartitaLedger.accountId(i)
                                + "\",\"balance\":" + opening + ",\"overdraftLimit\":" + overdraft + "}");
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

    /**
     * {@code POST /accounts}, re-sent on a 503 or 429 (a write its backup did not confirm in time, on a busy machine);
     * a 409 answering a re-sent one means an earlier attempt opened the account.
     */
    private void openAccount(URI node, String body) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response = send(node, "/accounts", body);
            int status = response.statusCode();
            if (status == 201 || status == 409 && attempt > 1) {
                return;
            }
            if ((status != 503 && status != 429) || attempt == MAX_ATTEMPTS) {
                throw new IllegalStateException("POST /accounts " + body + " answered " + status + " "
                        + response.body());
            }
        }
    }

    private HttpResponse<String> send(URI node, String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(node.resolve(path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public Session session(int client) {
        URI node = nodes.urls().get(client % size);
        return new Session() {
            @Override
            public Answer post(Tx tx) throws IOException, InterruptedException {
                String path = "/accounts/" + PartitaLedger.accountId(tx.account()) + "/transactions";
                String body = "{\"txId\":\"" + tx.id() + "\",\"type\":\"" + (tx.amount() < 0 ? "DEBIT" : "CREDIT")
                        + "\",\"amount\":" + Math.abs(tx.amount()) + "}";
                for (int attempt = 1; ; attempt++) {
                    HttpResponse<String> response = send(node, path, body);
                    int status = response.statusCode();
                    if ((status == 503 || status == 429) && attempt < MAX_ATTEMPTS) {
                        retries.increment();
                        continue;
                    }
                    boolean replayed = response.headers().firstValue("Idempotent-Replayed")
                            .map("true"::equalsIgnoreCase).orElse(false);
                    return answer(tx, status, response.body(), replayed, attempt > 1);
                }
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

    /** An HTTP answer: 200 applied, 422 rejected, both with the balance; anything else throws. */
    static Answer answer(Tx tx, int status, String body, boolean replayed, boolean retried) {
        Matcher balance = BALANCE.matcher(body);
        if (status != 200 && status != 422 || !balance.find()) {
            throw new IllegalStateException(tx + " was answered " + status + " " + body);
        }
        // After a retry the header says nothing: the first attempt may have been recorded before its 503.
        Answer.Replay replay = retried ? Answer.Replay.UNSAID
                : replayed ? Answer.Replay.REPLAYED : Answer.Replay.FIRST;
        return new Answer(status == 200, Long.parseLong(balance.group(1)), replay);
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
        long deadline = System.nanoTime() + JOURNAL_TIMEOUT.toNanos();
        long recorded;
        long rows;
        // The journal writers copy recorded entries to the journal within moments (a sweep every few seconds takes
        // any left behind); until then an entry is in its account's tail.
        do {
            recorded = sql("SELECT COALESCE(SUM(\"version\"), 0) FROM \"accounts\"").get(0).get(0).getLongValue();
            rows = sql("SELECT COUNT(*) FROM \"journal\"").get(0).get(0).getLongValue();
            if (rows == recorded || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(500);
        } while (true);
        long rejected = sql("SELECT COUNT(*) FROM \"journal\" WHERE \"status\" = 'REJECTED'").get(0).get(0)
                .getLongValue();
        long appliedSum = sql("SELECT COALESCE(SUM(CASE WHEN \"type\" = 'DEBIT' THEN -\"amount\" "
                + "ELSE \"amount\" END), 0) FROM \"journal\" WHERE \"status\" = 'APPLIED'").get(0).get(0)
                .getLongValue();
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
    public String describe() throws IOException, InterruptedException {
        HttpResponse<String> cluster = http.send(HttpRequest.newBuilder(nodes.urls().get(0).resolve("/cluster"))
                .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode view = json.readValue(cluster.body(), JsonNode.class);
        return "Partita over HTTP, " + view.get("members").size() + " node process(es) of " + jar + ", CP "
                + view.get("cp").get("mode").getStringValue();
    }

    @Override
    public void close() {
        if (nodes != null) {
            nodes.close();
        }
        if (httpThreads != null) {
            httpThreads.shutdownNow();
        }
    }
}
