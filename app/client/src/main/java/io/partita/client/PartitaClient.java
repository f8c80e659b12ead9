package io.partita.client;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A Partita cluster seen from Java: accounts, transactions, transfers, batches, journal reads, jobs and worker
 * leases, each sent to the node that owns the account, sent again with the same txId on an unknown outcome (so
 * applied exactly once), answered as typed results or exceptions. Thread-safe; make one per application and {@link #close} it at the end.
 *
 * <pre>{@code
 * try (PartitaClient partita = PartitaClient.builder("http://localhost:8080").build()) {
 *     partita.openAccount("alice", 1_000, 0);
 *     TxResult debit = partita.debit("alice", 100);   // applied, balance 900
 * }
 * }</pre>
 *
 * <p>Exactly once: every write carries a txId, made by the client ({@link #newTxId}) when the caller gives none.
 * A connection error, a timeout, a 429, or a 503 that is not {@code partition-lost} leaves the outcome unknown, so the
 * client sends the same body again, to another node after a connection error, waiting at least what
 * {@code Retry-After} says, until a definite answer or the retry budget ({@link Builder#retryBudget}, 30 s by
 * default) is spent: then {@link OutcomeUnknownException} with the txId to retry later. A 503 {@code partition-lost}
 * changed nothing, but its data may come back within seconds (members rejoining, a restart's recovery): it is sent
 * again the same way, and thrown as {@link PartitionLostException} if it is still the answer when the budget ends. A
 * node answers a repeated txId exactly as the first time ({@link TxResult#replayed()}), so no retry applies anything
 * twice.
 *
 * <p>Gathering ({@link Builder#coalesce}, off by default): single transactions made within a short window to accounts
 * of the same owner go as one batch, each caller still answered as its single call would have been.
 * Metrics: a {@link ClientListener} ({@link Builder#listener}) is told of each call's end, retries and table reads.
 *
 * <p>Threads: the sync calls run on the caller's thread, one pooled connection each. The async calls run the same
 * sync call on the client's executor (its own daemon threads unless {@link Builder#executor} gives one); the table
 * refreshes run there too. Gathered transactions are sent on the executor, their windows ended by one timer thread,
 * while a sync caller waits on its own thread.
 */
public final class PartitaClient implements AutoCloseable {

    private static final String PROBLEM = "https://partita.dev/problems/";
    /** A retry waits this long first, then twice as long each time, up to {@link #MAX_BACKOFF_NANOS}. */
    static final long FIRST_BACKOFF_NANOS = 20_000_000L;
    static final long MAX_BACKOFF_NANOS = 1_000_000_000L;
    private static final String TX_PREFIX = txPrefix();
    private static final AtomicLong TX_COUNTER = new AtomicLong();

    private final Http1Transport transport;
    private final Router router;
    private final ExecutorService executor;
    private final boolean ownExecutor;
    private final long budgetNanos;
    private final ClientListener listener;
    private final Coalescer coalescer;
    /** {@code ?mode=...} for the routes that take one (transactions, transfers, batches), or empty. */
    private final String modeQuery;

    /**
     * How the node processes a write ({@code ?mode=}): {@code PARTITIONED}, an entry processor at the owner, no lock;
     * {@code LOCKED}, a FencedLock per account (the comparison path). Unset, the node's own default applies.
     */
    public enum Mode {
        PARTITIONED, LOCKED
    }

    private PartitaClient(Builder builder) {
        String authorization = builder.user == null ? null : "Basic " + Base64.getEncoder().encodeToString(
                (builder.user + ":" + builder.password).getBytes(StandardCharsets.UTF_8));
        this.transport = new Http1Transport(builder.connectTimeout, builder.attemptTimeout, authorization,
                builder.tls, builder.maxIdlePerNode);
        this.ownExecutor = builder.executor == null;
        this.executor = ownExecutor ? Executors.newCachedThreadPool(daemonThreads()) : builder.executor;
        this.budgetNanos = builder.retryBudget.toNanos();
        this.modeQuery = builder.mode == null ? "" : "?mode=" + builder.mode.name().toLowerCase(Locale.ROOT);
        this.listener = builder.listener == null ? ClientListener.NONE : new GuardedListener(builder.listener);
        this.router = new Router(builder.nodes, builder.partitionAware, builder.refreshInterval.toNanos(),
                (node, path) -> transport.exchange(node, "GET", path, null), executor, listener);
        this.coalescer = builder.coalesceWindow == null ? null : new Coalescer(builder.coalesceWindow.toNanos(),
                builder.coalesceMaxBatch, budgetNanos, router,
                (node, method, path, body) -> transport.exchange(node, method, path + modeQuery, body), executor,
                listener);
    }

    /** A builder for a client of the cluster that {@code nodes} (one or more node URLs) belong to. */
    public static Builder builder(String... nodes) {
        return new Builder(nodes);
    }

    /**
     * A new transaction id: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, unique without coordination: 80 random bits
     * drawn once per JVM, then a counter. (A {@code UUID.randomUUID()} per call costs a lock on a shared SecureRandom,
     * which showed as client CPU under 16 threads.)
     */
    public static String newTxId() {
        return TX_PREFIX + Long.toString(TX_COUNTER.incrementAndGet(), 36);
    }

    // Accounts ------------------------------------------------------------------------------------------------------

    /**
     * Opens an account ({@code POST /accounts}; the admin's route when the cluster has credentials).
     *
     * @throws AlreadyExistsException the id exists. When an earlier attempt of this call may have reached a node and
     *                                its answer was lost, the account is read back: returned when it is as this call
     *                                opens it (version 0, this balance and overdraft limit), the exception otherwise
     *                                (so an account this call opened and another caller changed at once is reported
     *                                as existing, never an older account as opened)
     */
    public Account openAccount(String id, long balance, long overdraftLimit) {
        String body = "{\"id\":" + Json.quote(id) + ",\"balance\":" + balance + ",\"overdraftLimit\":"
                + overdraftLimit + "}";
        return send("open-account", "open account " + id, null, "POST", "/accounts", body, id,
                (answer, attempt) -> readAccount(answer, id), exists -> {
                    Account found = account(id);
                    if (found.version() == 0 && found.balance() == balance
                            && found.overdraftLimit() == overdraftLimit) {
                        return found;
                    }
                    throw exists;
                }, System.nanoTime() + budgetNanos);
    }

    /** Reads an account ({@code GET /accounts/{id}}) at its owner. @throws NotFoundException no such account */
    public Account account(String id) {
        return send("account", "read account " + id, null, "GET", "/accounts/" + path(id), null, id,
                (answer, attempt) -> readAccount(answer, id));
    }

    /** The account's journal, newest first, at most {@code limit} lines (the node serves up to 1,000). */
    public List<JournalLine> journal(String accountId, int limit) {
        return journal(accountId, Long.MAX_VALUE, limit);
    }

    /**
     * A page of the account's journal over its whole retention: at most {@code limit} lines with a seq below
     * {@code beforeSeq}, newest first. The next page is below the smallest seq of this one; an empty page is the end.
     */
    @SuppressWarnings("unchecked")
    public List<JournalLine> journal(String accountId, long beforeSeq, int limit) {
        return send("journal", "read journal " + accountId, null, "GET", "/accounts/" + path(accountId)
                + "/transactions?limit=" + limit + "&before=" + beforeSeq, null, accountId, (answer, attempt) -> {
            List<JournalLine> lines = new ArrayList<>();
            for (Object item : (List<Object>) Json.parse(answer.body())) {
                Map<String, Object> line = (Map<String, Object>) item;
                lines.add(new JournalLine((String) line.get("txId"), (String) line.get("type"),
                        number(line, "amount"), (String) line.get("status"), number(line, "balanceAfter"),
                        (String) line.get("at"), number(line, "seq"), (String) line.get("ref"),
                        Boolean.TRUE.equals(line.get("merged"))));
            }
            return List.copyOf(lines);
        });
    }

    // Transactions --------------------------------------------------------------------------------------------------

    public TxResult debit(String accountId, long amount) {
        return post(accountId, TxType.DEBIT, amount, newTxId());
    }

    public TxResult credit(String accountId, long amount) {
        return post(accountId, TxType.CREDIT, amount, newTxId());
    }

    /**
     * One transaction ({@code POST /accounts/{id}/transactions}) with the caller's txId, sent to the account's owner.
     * A null {@code txId} is one the client makes ({@link #newTxId}), which the result carries.
     *
     * @return applied or rejected, with the balance after
     * @throws NotFoundException       no such account
     * @throws IdReusedException       {@code txId} was used with another payload
     * @throws PartitionLostException  the account's partition is lost for now
     * @throws OutcomeUnknownException no definite answer within the retry budget: retry with the same txId
     *                                 (also when this thread is interrupted while its gathered call waits)
     */
    public TxResult post(String accountId, TxType type, long amount, String txId) {
        String id = txId != null ? txId : newTxId();
        if (coalescer != null) {
            return await(coalescer.submit(new BatchItem(id, accountId, type, amount)), id);
        }
        return send("transaction", "transaction on " + accountId, id, "POST", transactionPath(accountId) + modeQuery,
                transactionBody(id, type, amount), accountId, (answer, attempt) ->
                        txResult(Json.object(answer.body()), answer.status(), answer.replayed(), attempt));
    }

    /**
     * {@link #post} on the client's executor. With {@link Builder#coalesce} the call joins its owner's next batch and
     * no thread waits for it: the future completes when its batch is answered.
     */
    public CompletableFuture<TxResult> postAsync(String accountId, TxType type, long amount, String txId) {
        if (coalescer != null) {
            return coalescer.submit(new BatchItem(txId, accountId, type, amount));
        }
        String id = txId != null ? txId : newTxId();
        return async(() -> post(accountId, type, amount, id));
    }

    static String transactionPath(String accountId) {
        return "/accounts/" + path(accountId) + "/transactions";
    }

    static String transactionBody(String txId, TxType type, long amount) {
        return "{\"txId\":" + Json.quote(txId) + ",\"type\":\"" + type + "\",\"amount\":" + amount + "}";
    }

    /** The caller's wait for a gathered call: its result, or the very exception its single call would throw. */
    private static TxResult await(CompletableFuture<TxResult> call, String txId) {
        try {
            return call.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException("interrupted", txId, 0, e);
        }
    }

    /**
     * A transfer ({@code POST /transfers}), exactly once per txId, sent to the owner of the source account. A null
     * {@code txId} is one the client makes ({@link #newTxId}), which the result carries.
     *
     * @return completed or rejected (the source lacks the funds)
     */
    public TransferResult transfer(String txId, String from, String to, long amount) {
        if (txId == null) {
            return transfer(newTxId(), from, to, amount);
        }
        String body = "{\"txId\":" + Json.quote(txId) + ",\"from\":" + Json.quote(from) + ",\"to\":" + Json.quote(to)
                + ",\"amount\":" + amount + "}";
        return send("transfer", "transfer " + txId, txId, "POST", "/transfers" + modeQuery, body, from,
                (answer, attempt) -> {
                    Map<String, Object> t = Json.object(answer.body());
                    return new TransferResult((String) t.get("txId"), (String) t.get("from"), (String) t.get("to"),
                            number(t, "amount"), "COMPLETED".equals(t.get("status")), boxed(t, "fromBalance"),
                            boxed(t, "toBalance"), answer.replayed(), (String) t.get("reason"));
                });
    }

    public CompletableFuture<TransferResult> transferAsync(String txId, String from, String to, long amount) {
        String id = txId != null ? txId : newTxId();
        return async(() -> transfer(id, from, to, amount));
    }

    /**
     * Up to 10,000 transactions in one call ({@code POST /transactions/batch}); the answers in the same order, each
     * as its single call would have ended. Within one retry budget: the whole batch is sent again on an unknown
     * outcome of the call, and the items the node answered without a definite outcome (an item's 503, 429, ...) or
     * with {@code partition-lost} are sent again, alone in a smaller batch, as the single call would have retried them;
     * each item keeps its txId, so none is applied twice. An item still without a definite answer when the budget ends
     * has an {@link OutcomeUnknownException} as its error (send it again with the same txId later), one whose
     * partition is still lost a {@link PartitionLostException}.
     *
     * @throws OutcomeUnknownException the first send of the whole batch got no definite answer within the budget
     */
    public List<BatchOutcome> batch(List<BatchItem> items) {
        long deadline = System.nanoTime() + budgetNanos;
        BatchOutcome[] outcomes = new BatchOutcome[items.size()];
        List<Integer> open = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            open.add(i);
        }
        long backoff = FIRST_BACKOFF_NANOS;
        for (int round = 1; ; round++) {
            List<BatchItem> sending = open.size() == items.size() ? items : open.stream().map(items::get).toList();
            List<BatchOutcome> answers;
            try {
                answers = sendBatch(sending, deadline);
            } catch (OutcomeUnknownException e) {
                if (round == 1) {
                    throw e;
                }
                for (int index : open) {
                    outcomes[index] = unknownItem(items.get(index), e.attempts(), e.getCause());
                }
                return List.of(outcomes);
            }
            List<Integer> again = new ArrayList<>();
            for (int i = 0; i < open.size(); i++) {
                outcomes[open.get(i)] = answers.get(i);
                if (retried(answers.get(i).httpStatus())) {
                    again.add(open.get(i));
                }
            }
            if (again.isEmpty()) {
                return List.of(outcomes);
            }
            if (System.nanoTime() + backoff > deadline) {
                for (int index : again) {
                    BatchOutcome last = outcomes[index];
                    if (!(last.error() instanceof PartitionLostException)) {
                        outcomes[index] = unknownItem(items.get(index), round, last.error());
                    }
                }
                return List.of(outcomes);
            }
            listener.onRetry("batch", router.route(items.get(again.get(0)).accountId()), round,
                    outcomes[again.get(0)].httpStatus(), backoff);
            pause(backoff);
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            open = again;
        }
    }

    private static BatchOutcome unknownItem(BatchItem item, int attempts, Throwable last) {
        return new BatchOutcome(item.txId(), 0, null, new OutcomeUnknownException("transaction on "
                + item.accountId(), item.txId(), attempts, last));
    }

    /** One send of a batch (retried as a whole on an unknown outcome, until {@code deadline}), its items' answers. */
    @SuppressWarnings("unchecked")
    private List<BatchOutcome> sendBatch(List<BatchItem> items, long deadline) {
        String body = batchBody(items);
        String key = items.isEmpty() ? null : items.get(0).accountId();
        return send("batch", "batch of " + items.size(), items.isEmpty() ? null : items.get(0).txId(), "POST",
                "/transactions/batch" + modeQuery, body, key, (answer, attempt) -> {
                    List<BatchOutcome> outcomes = new ArrayList<>();
                    for (Object element : (List<Object>) Json.parse(answer.body())) {
                        Map<String, Object> item = (Map<String, Object>) element;
                        int status = (int) number(item, "httpStatus");
                        // The answers come in the items' order; a refused item's body may not repeat its txId.
                        String txId = outcomes.size() < items.size() ? items.get(outcomes.size()).txId()
                                : (String) item.get("txId");
                        if (status == 200 || status == 422 && "REJECTED".equals(item.get("status"))) {
                            outcomes.add(new BatchOutcome(txId, status, txResult(item, status,
                                    Boolean.TRUE.equals(item.get("replayed")), attempt), null));
                        } else {
                            outcomes.add(new BatchOutcome(txId, status, null, refusal(status, item)));
                        }
                    }
                    return List.copyOf(outcomes);
                }, null, deadline);
    }

    static String batchBody(List<BatchItem> items) {
        StringBuilder body = new StringBuilder(items.size() * 80 + 2).append('[');
        for (BatchItem item : items) {
            if (body.length() > 1) {
                body.append(',');
            }
            body.append("{\"txId\":").append(Json.quote(item.txId())).append(",\"accountId\":")
                    .append(Json.quote(item.accountId())).append(",\"type\":\"").append(item.type())
                    .append("\",\"amount\":").append(item.amount()).append('}');
        }
        return body.append(']').toString();
    }

    public CompletableFuture<List<BatchOutcome>> batchAsync(List<BatchItem> items) {
        return async(() -> batch(items));
    }

    public CompletableFuture<Account> accountAsync(String id) {
        return async(() -> account(id));
    }

    // Jobs (the admin's routes) ------------------------------------------------------------------------------------

    /** Starts a FEE job: {@code amount} from every account that can pay it. See {@link #startJob}. */
    public JobStatus startFee(String jobId, long amount) {
        return startJob(jobId, "FEE", "amount", amount);
    }

    /** Starts an INTEREST job: {@code rateBasisPoints} of every positive balance. See {@link #startJob}. */
    public JobStatus startInterest(String jobId, int rateBasisPoints) {
        return startJob(jobId, "INTEREST", "rateBasisPoints", (long) rateBasisPoints);
    }

    /** Starts an AUDIT job: every account's balance against its journal. See {@link #startJob}. */
    public JobStatus startAudit(String jobId) {
        return startJob(jobId, "AUDIT", null, null);
    }

    /**
     * {@code POST /jobs}. A job touches each account exactly once; {@code jobId} null lets the client make one, so
     * that a retry after a lost answer cannot start a second job: it reads the first back instead, and returns it when
     * it is this call's (its type and figure, not started by a schedule), or throws {@link AlreadyExistsException}.
     *
     * @throws AlreadyExistsException a job with this id exists
     * @throws PartitaException       409 when a job of this type is running, 400 for a bad amount or rate
     */
    private JobStatus startJob(String jobId, String type, String figure, Long value) {
        String id = jobId == null ? "job-" + newTxId() : jobId;
        String fields = figure == null ? "" : ",\"" + figure + "\":" + value;
        String body = "{\"id\":" + Json.quote(id) + ",\"type\":\"" + type + "\"" + fields + "}";
        return send("start-job", "start job " + id, null, "POST", "/jobs", body, null,
                (answer, attempt) -> jobStatus(answer), exists -> {
                    JobStatus found = job(id);
                    if (type.equals(found.type()) && found.results().get("schedule") == null
                            && (figure == null || value.equals(found.count(figure)))) {
                        return found;
                    }
                    throw exists;
                }, System.nanoTime() + budgetNanos);
    }

    /** {@code GET /jobs/{id}}. @throws NotFoundException no such job */
    public JobStatus job(String id) {
        return send("job", "read job " + id, null, "GET", "/jobs/" + path(id), null, null,
                (answer, attempt) -> jobStatus(answer));
    }

    private static JobStatus jobStatus(Http1Transport.Answer answer) {
        Map<String, Object> job = Json.object(answer.body());
        Map<String, Object> results = new LinkedHashMap<>(job);
        for (String shown : List.of("id", "type", "state", "partitionsDone", "partitionsTotal", "accountsProcessed",
                "startedAt", "finishedAt")) {
            results.remove(shown);
        }
        return new JobStatus((String) job.get("id"), (String) job.get("type"), (String) job.get("state"),
                (int) number(job, "partitionsDone"), (int) number(job, "partitionsTotal"),
                number(job, "accountsProcessed"), (String) job.get("startedAt"), (String) job.get("finishedAt"),
                Collections.unmodifiableMap(results));
    }

    // Worker leases -------------------------------------------------------------------------------------------------

    /**
     * Creates a lease group ({@code PUT /groups/{group}}, the admin's): {@code shards} shards shared by its workers,
     * each lease lasting {@code leaseSeconds}. Creating it again with the same figures is a no-op.
     *
     * @throws AlreadyExistsException the group exists with other figures
     */
    public void createLeaseGroup(String group, int shards, int leaseSeconds) {
        send("create-lease-group", "create lease group " + group, null, "PUT", "/groups/" + path(group),
                "{\"shards\":" + shards + ",\"leaseSeconds\":" + leaseSeconds + "}", group, (answer, attempt) -> null);
    }

    /**
     * Joins a lease group as a new worker ({@code POST /groups/{group}/workers}); the request id the client sends
     * makes a retried join find the worker its first attempt created, so a lost answer never leaves a second worker.
     *
     * @throws NotFoundException no such group
     */
    public WorkerLease joinLeaseGroup(String group) {
        String body = "{\"requestId\":" + Json.quote("join-" + newTxId()) + "}";
        return send("join-lease-group", "join lease group " + group, null, "POST", "/groups/" + path(group)
                + "/workers", body, group, (answer, attempt) -> lease(answer));
    }

    /** Renews a worker's lease; the answer lists the shards it holds now. @throws LeaseLostException it has none */
    public WorkerLease renewLease(String group, String workerId) {
        return send("renew-lease", "renew lease " + workerId, null, "POST", "/groups/" + path(group) + "/workers/"
                + path(workerId) + "/renew", "{}", group, (answer, attempt) -> lease(answer));
    }

    /** Leaves a lease group; its shards go to the other workers. @throws LeaseLostException it holds no lease */
    public void leaveLeaseGroup(String group, String workerId) {
        send("leave-lease-group", "leave lease group " + workerId, null, "DELETE", "/groups/" + path(group)
                + "/workers/" + path(workerId), null, group, (answer, attempt) -> null);
    }

    /** Asks whether {@code token} is still the fencing token of {@code shard}. */
    public FenceCheck checkFence(String group, int shard, long token) {
        return send("check-fence", "check fence of " + group, null, "POST", "/groups/" + path(group) + "/fences/check",
                "{\"shard\":" + shard + ",\"token\":" + token + "}", group, (answer, attempt) -> {
                    Map<String, Object> check = Json.object(answer.body());
                    return new FenceCheck((int) number(check, "shard"), number(check, "token"),
                            Boolean.TRUE.equals(check.get("current")), boxed(check, "currentToken"));
                });
    }

    @SuppressWarnings("unchecked")
    private static WorkerLease lease(Http1Transport.Answer answer) {
        Map<String, Object> lease = Json.object(answer.body());
        List<WorkerLease.Shard> shards = new ArrayList<>();
        for (Object grant : (List<Object>) lease.get("shards")) {
            Map<String, Object> g = (Map<String, Object>) grant;
            shards.add(new WorkerLease.Shard((int) number(g, "shard"), number(g, "token")));
        }
        return new WorkerLease((String) lease.get("group"), (String) lease.get("workerId"),
                number(lease, "leaseMillis"), List.copyOf(shards));
    }

    @Override
    public void close() {
        if (coalescer != null) {
            coalescer.close();
        }
        transport.close();
        if (ownExecutor) {
            executor.shutdownNow();
        }
    }

    Router router() {
        return router;
    }

    // The call and its retries ----------------------------------------------------------------------------------

    /**
     * Sends until a definite answer: the routing, the retry of unknown outcomes within the budget, and the mapping of
     * refusals to exceptions in one place. {@code read} reads a 2xx answer (and a 422 rejection).
     */
    private <T> T send(String operation, String what, String txId, String method, String path, String body,
                       String key, Reader<T> read) {
        return send(operation, what, txId, method, path, body, key, read, null, System.nanoTime() + budgetNanos);
    }

    /** Reads a definite answer; {@code attempt} is how many sends it took (1: no retry). */
    private interface Reader<T> {
        T read(Http1Transport.Answer answer, int attempt);
    }

    /**
     * As above, retrying until {@code deadline}; {@code afterLostCreate}, when given, answers a 409 {@code *-exists}
     * that follows an attempt with an unknown outcome (that attempt may have created what this call creates): the
     * created thing, when it is this call's, or the 409's exception, which it is given, thrown.
     */
    private <T> T send(String operation, String what, String txId, String method, String path, String body,
                       String key, Reader<T> read, Function<PartitaException, T> afterLostCreate, long deadline) {
        long start = System.nanoTime();
        long backoff = FIRST_BACKOFF_NANOS;
        URI node = key == null ? router.any() : router.route(key);
        Throwable last = null;
        // Whether an attempt may have changed something (an unknown outcome, not a refusal such as partition-lost).
        boolean mayHaveLanded = false;
        for (int attempt = 1; ; attempt++) {
            long wait = backoff;
            int status = 0;
            try {
                Http1Transport.Answer answer = transport.exchange(node, method, path, body,
                        Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                status = answer.status();
                if (decided(answer)) {
                    T result;
                    try {
                        result = read.read(answer, attempt);
                    } catch (RuntimeException unreadable) {
                        listener.onCall(operation, node, attempt, System.nanoTime() - start,
                                ClientListener.Outcome.REFUSED);
                        throw new UnreadableAnswerException(what, status, answer.body(), unreadable);
                    }
                    listener.onCall(operation, node, attempt, System.nanoTime() - start,
                            status == 422 ? ClientListener.Outcome.REJECTED : ClientListener.Outcome.OK);
                    return result;
                }
                Map<String, Object> problem = problem(answer.body());
                if (!retried(status)) {
                    if (status == 409 && mayHaveLanded && afterLostCreate != null
                            && String.valueOf(problem.get("type")).endsWith("-exists")) {
                        T created = afterLostCreate.apply(refusal(status, problem));
                        listener.onCall(operation, node, attempt, System.nanoTime() - start,
                                ClientListener.Outcome.OK);
                        return created;
                    }
                    listener.onCall(operation, node, attempt, System.nanoTime() - start,
                            ClientListener.Outcome.REFUSED);
                    throw refusal(status, problem);
                }
                last = retriedCause(status, problem);
                mayHaveLanded |= !(last instanceof PartitionLostException);
                wait = Math.max(backoff, retryAfterNanos(answer.retryAfter()));
            } catch (Http1Transport.Closed e) {
                throw new IllegalStateException("the client is closed", e);
            } catch (Http1Transport.Untrusted e) {
                listener.onCall(operation, node, attempt, System.nanoTime() - start, ClientListener.Outcome.REFUSED);
                throw new TlsException(what + ": the TLS check refused " + node + "; nothing was sent", e.getCause());
            } catch (Http1Transport.NotSent e) {
                // No connection: nothing was sent, so this attempt changed nothing.
                last = e;
                router.failed(node);
            } catch (IOException e) {
                last = e;
                mayHaveLanded = true;
                router.failed(node);
            }
            if (System.nanoTime() + wait > deadline) {
                if (last instanceof PartitionLostException lost) {
                    listener.onCall(operation, node, attempt, System.nanoTime() - start,
                            ClientListener.Outcome.REFUSED);
                    throw lost;
                }
                listener.onCall(operation, node, attempt, System.nanoTime() - start, ClientListener.Outcome.UNKNOWN);
                throw new OutcomeUnknownException(what, txId, attempt, last);
            }
            listener.onRetry(operation, node, attempt, status, wait);
            pause(wait);
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            // After a connection error the node is a suspect for a moment: the route then picks another one.
            node = key == null ? router.any() : router.route(key);
        }
    }

    /** A success, or a transaction's rejection (422 with status REJECTED, not a problem): the call's answer. */
    static boolean decided(Http1Transport.Answer answer) {
        int status = answer.status();
        return status / 100 == 2 || status == 422 && answer.body().contains("\"REJECTED\"");
    }

    /**
     * Sent again within the budget: 408, 429, 502, 503 and 504. The node did not decide, so the same call may succeed;
     * a 503 {@code partition-lost} changed nothing, and its data may be back in seconds.
     */
    static boolean retried(int status) {
        return status == 503 || status == 429 || status == 502 || status == 504 || status == 408;
    }

    static boolean partitionLost(int status, Map<String, Object> problem) {
        return status == 503 && (PROBLEM + "partition-lost").equals(problem.get("type"));
    }

    /**
     * What a {@link #retried} answer leaves as the call's last failure: the {@link PartitionLostException} itself
     * (thrown if it is still the answer when the budget ends), or the status as the cause of an unknown outcome.
     */
    static Throwable retriedCause(int status, Map<String, Object> problem) {
        return partitionLost(status, problem) ? refusal(status, problem)
                : new IOException(status + " " + problem.getOrDefault("title", ""));
    }

    static long retryAfterNanos(String retryAfter) {
        if (retryAfter == null) {
            return 0;
        }
        try {
            return Duration.ofSeconds(Long.parseLong(retryAfter.trim())).toNanos();
        } catch (NumberFormatException e) {
            return 0; // An HTTP date: the client's own backoff instead.
        }
    }

    private static void pause(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException("interrupted", null, 0, e);
        }
    }

    static Map<String, Object> problem(String body) {
        try {
            Object parsed = body.isBlank() ? null : Json.parse(body);
            if (parsed instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked") Map<String, Object> problem = (Map<String, Object>) parsed;
                return problem;
            }
        } catch (RuntimeException e) {
            // Not JSON (a proxy's page): the status says enough.
        }
        return Map.of();
    }

    /** The exception for a definite refusal. */
    @SuppressWarnings("unchecked")
    static PartitaException refusal(int status, Map<String, Object> problem) {
        String type = (String) problem.get("type");
        String title = (String) problem.get("title");
        String detail = (String) problem.get("detail");
        if (problem.get("errors") instanceof List<?> errors && status == 400) {
            List<PartitaException.FieldError> fields = new ArrayList<>();
            for (Object error : errors) {
                if (error instanceof Map<?, ?> field) {
                    Map<String, Object> f = (Map<String, Object>) field;
                    fields.add(new PartitaException.FieldError(String.valueOf(f.get("field")),
                            String.valueOf(f.get("message"))));
                }
            }
            return new PartitaException(status, type, title, detail, fields);
        }
        if (status == 404) {
            return new NotFoundException(status, type, title, detail);
        }
        if (status == 401 || status == 403) {
            return new AuthenticationException(status, type, title, detail);
        }
        if (status == 409 && (PROBLEM + "txid-conflict").equals(type)) {
            return new IdReusedException(status, type, title, detail);
        }
        if (status == 409 && type != null && type.endsWith("-exists")) {
            return new AlreadyExistsException(status, type, title, detail);
        }
        if (status == 410) {
            return new LeaseLostException(status, type, title, detail);
        }
        if (status == 503 && (PROBLEM + "partition-lost").equals(type)) {
            return new PartitionLostException(status, type, title, detail);
        }
        return new PartitaException(status, type, title, detail);
    }

    private Account readAccount(Http1Transport.Answer answer, String id) {
        Map<String, Object> a = Json.object(answer.body());
        String owner = (String) a.get("owner");
        router.observedOwner(id, owner);
        return new Account((String) a.get("id"), number(a, "balance"), number(a, "overdraftLimit"),
                number(a, "version"), (int) number(a, "partition"), owner, number(a, "mergeConflicts"));
    }

    static TxResult txResult(Map<String, Object> t, int status, boolean replayed, int attempts) {
        return new TxResult((String) t.get("txId"), (String) t.get("accountId"), status == 200,
                required(t, "balance"), replayed, (String) t.get("reason"), attempts);
    }

    static long number(Map<String, Object> map, String field) {
        Object value = map.get(field);
        return value instanceof Number n ? n.longValue() : 0;
    }

    /** A number the answer must hold. @throws IllegalArgumentException it does not */
    static long required(Map<String, Object> map, String field) {
        if (map.get(field) instanceof Number n) {
            return n.longValue();
        }
        throw new IllegalArgumentException("no number in field " + field);
    }

    private static Long boxed(Map<String, Object> map, String field) {
        return map.get(field) instanceof Number n ? n.longValue() : null;
    }

    /**
     * {@code id} as one segment of a path. URLEncoder encodes for forms, where a space is '+', which a path keeps as a
     * plus sign: it is written %20 here, so that the node sees the id as given (and refuses it as such).
     */
    private static String path(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("an id is required (1 to 64 characters)");
        }
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String txPrefix() {
        byte[] random = new byte[10];
        new SecureRandom().nextBytes(random);
        return new BigInteger(1, random).toString(36) + "-";
    }

    private <T> CompletableFuture<T> async(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, executor);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "partita-client-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** How to reach the cluster; every setting has a default but the node URLs. */
    public static final class Builder {
        private final List<URI> nodes = new ArrayList<>();
        private String user;
        private String password;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration attemptTimeout = Duration.ofSeconds(10);
        private Duration retryBudget = Duration.ofSeconds(30);
        private Duration refreshInterval = Duration.ofSeconds(10);
        private boolean partitionAware = true;
        private int maxIdlePerNode = 256;
        private SSLSocketFactory tls;
        private ExecutorService executor;
        private ClientListener listener;
        private Duration coalesceWindow;
        private int coalesceMaxBatch;
        private Mode mode;

        private Builder(String... urls) {
            for (String url : urls) {
                nodes.add(URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url));
            }
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("give at least one node URL");
            }
        }

        /** Basic authentication: the cluster's client user (or admin, to open accounts). */
        public Builder credentials(String user, String password) {
            this.user = user;
            this.password = password;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /** How long one attempt waits for its answer (default 10 s, the node's own request timeout). */
        public Builder attemptTimeout(Duration timeout) {
            this.attemptTimeout = timeout;
            return this;
        }

        /** How long one call keeps retrying an unknown outcome before {@link OutcomeUnknownException} (30 s). */
        public Builder retryBudget(Duration budget) {
            this.retryBudget = budget;
            return this;
        }

        /** How old the partition table may get before it is read again in the background (10 s). */
        public Builder refreshInterval(Duration interval) {
            this.refreshInterval = interval;
            return this;
        }

        /**
         * Whether to send each call to the owner of its account (default true). Off: calls go to the given nodes in
         * turn, and the nodes forward (for nodes whose {@code httpUrl} this client cannot reach, e.g. behind NAT).
         */
        public Builder partitionAware(boolean on) {
            this.partitionAware = on;
            return this;
        }

        /** Idle kept-alive connections per node (256). */
        public Builder maxIdlePerNode(int max) {
            this.maxIdlePerNode = max;
            return this;
        }

        /** TLS for {@code https} node URLs (default: the JVM's default context and trust store). */
        public Builder tls(SSLContext context) {
            this.tls = context.getSocketFactory();
            return this;
        }

        /** The threads of the async calls and table refreshes (default: the client's own daemon threads). */
        public Builder executor(ExecutorService executor) {
            this.executor = executor;
            return this;
        }

        /**
         * Gathers single transactions ({@link #post}, {@link #postAsync}, {@link #debit}, {@link #credit}) into
         * batches (off by default): the calls made within {@code window} of a batch's first call, to accounts of the
         * same owner, go as one {@code POST /transactions/batch} of at most {@code maxBatch} calls (a full batch at
         * once). Each caller still gets its own result or exception, exactly as its single call would have, and its
         * retries resend its own txId within its own retry budget. Costs each call up to {@code window} of latency;
         * saves the node one HTTP request per gathered call. {@code attemptTimeout} then bounds a batch's answer.
         * The batches are sent on the client's executor while a sync caller waits: with a bounded
         * {@link #executor} of your own, make no sync call from its threads.
         *
         * @param window   how long a batch waits for more calls after its first, e.g. 1 ms (0: only what arrives while
         *                 the timer thread gets to it)
         * @param maxBatch 1 to 10,000 (the node's limit on a batch)
         */
        public Builder coalesce(Duration window, int maxBatch) {
            if (window.isNegative()) {
                throw new IllegalArgumentException("a negative window: " + window);
            }
            if (maxBatch < 1 || maxBatch > Coalescer.MAX_ITEMS) {
                throw new IllegalArgumentException("maxBatch must be 1 to " + Coalescer.MAX_ITEMS
                        + " (the node's limit on a batch): " + maxBatch);
            }
            this.coalesceWindow = window;
            this.coalesceMaxBatch = maxBatch;
            return this;
        }

        /** How the nodes process this client's writes ({@code ?mode=}; default: each node's configured mode). */
        public Builder mode(Mode mode) {
            this.mode = mode;
            return this;
        }

        /** Told of every call's end, retry, table read and gathered batch, for metrics (default: none). */
        public Builder listener(ClientListener listener) {
            this.listener = listener;
            return this;
        }

        public PartitaClient build() {
            if (tls == null && nodes.stream().anyMatch(node -> "https".equalsIgnoreCase(node.getScheme()))) {
                try {
                    tls = SSLContext.getDefault().getSocketFactory();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("no default TLS context", e);
                }
            }
            return new PartitaClient(this);
        }
    }
}
