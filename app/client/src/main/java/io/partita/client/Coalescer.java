package io.partita.client;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Gathers single transactions ({@link PartitaClient#post}, {@link PartitaClient#postAsync}) made within a short window
 * to accounts of the same owner into one {@code POST /transactions/batch}, and answers each caller exactly as its
 * single call would have been answered: the node answers each batch item as that call (the same status, body and
 * replay flag), a definite item answer completes its caller, and an item whose outcome is unknown (503, 429, ...)
 * or whose partition is lost for now is sent again with the same txId, alone or in a later batch, within the caller's
 * own retry budget, as the single call would have retried it. A connection error or a 503 for the whole batch sends
 * each of its items again the same way. Nothing is ever applied twice: an item keeps its txId through every resend.
 *
 * <p>What it gathers: a call whose ids match the API's pattern and whose amount is positive (any other call goes alone
 * on the single route, to get that route's own 400). A window that gathered one call sends it on the single route too.
 * A batch holds at most {@code maxBatch} calls, at most {@link #MAX_ITEMS} (the node's limit); a full batch goes at
 * once. A batch the node refuses as a whole (e.g. 413 from a node whose in-flight limit is below the batch's size)
 * has run nothing: each of its calls then goes alone.
 *
 * <p>Threads: callers add calls to the gather of their account's owner (a lock per gather). One daemon timer thread
 * ends each window and schedules resends; the sends and the completion of the callers' futures run on the client's
 * executor. A call is handled by one thread at a time: the hand-offs (the gather's lock, the executor, the timer)
 * order its fields' writes before the next thread's reads.
 */
final class Coalescer implements AutoCloseable {

    /** The node's limit on the items of one batch ({@code BatchController.MAX_ITEMS}); more is a 400 for all. */
    static final int MAX_ITEMS = 10_000;

    private static final String OPERATION = "transaction";
    private static final URI ANY = URI.create("partita:any-node");
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    /** The client's transport, one attempt. */
    interface Exchange {
        Http1Transport.Answer exchange(URI node, String method, String path, String body) throws IOException;
    }

    /** One caller's transaction on its way. */
    private static final class Call {
        final BatchItem item;
        final long start;
        final long deadline;
        final CompletableFuture<TxResult> future = new CompletableFuture<>();
        boolean alone;
        int attempts;
        long backoff = PartitaClient.FIRST_BACKOFF_NANOS;

        Call(BatchItem item, long start, long deadline, boolean alone) {
            this.item = item;
            this.start = start;
            this.deadline = deadline;
            this.alone = alone;
        }
    }

    /** A call to send again after {@code minWait}: its attempt's status (0: no answer) and why. */
    private record Again(Call call, int status, Throwable cause, long minWait) {
    }

    private final long windowNanos;
    private final int maxBatch;
    private final long budgetNanos;
    private final Router router;
    private final Exchange transport;
    private final Executor executor;
    private final ClientListener listener;
    private final ScheduledThreadPoolExecutor timer;
    private final Map<URI, Gather> gathers = new ConcurrentHashMap<>();
    private final Set<Call> resending = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    Coalescer(long windowNanos, int maxBatch, long budgetNanos, Router router, Exchange transport, Executor executor,
              ClientListener listener) {
        this.windowNanos = windowNanos;
        this.maxBatch = maxBatch;
        this.budgetNanos = budgetNanos;
        this.router = router;
        this.transport = transport;
        this.executor = executor;
        this.listener = listener;
        this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "partita-client-coalesce");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /** Takes one transaction; the future completes as the single call would have returned or thrown. */
    CompletableFuture<TxResult> submit(BatchItem item) {
        long now = System.nanoTime();
        boolean gatherable = item.txId() != null && ID.matcher(item.txId()).matches()
                && item.accountId() != null && ID.matcher(item.accountId()).matches() && item.amount() > 0;
        Call call = new Call(item, now, now + budgetNanos, !gatherable);
        enqueue(call);
        return call.future;
    }

    private void enqueue(Call call) {
        if (call.future.isDone()) {
            return;
        }
        if (closed) {
            unknown(call, null, new IOException("client closed"));
            return;
        }
        if (call.alone) {
            dispatch(router.route(call.item.accountId()), List.of(call));
            return;
        }
        URI owner = router.partitionAware() ? router.route(call.item.accountId()) : ANY;
        gathers.computeIfAbsent(owner, Gather::new).add(call);
    }

    /** The calls gathered for one node; its window starts with the first call and ends on the timer. */
    private final class Gather {
        private final URI node;
        private List<Call> calls = new ArrayList<>(); // guarded by this
        private boolean timed; // guarded by this

        Gather(URI node) {
            this.node = node;
        }

        void add(Call call) {
            List<Call> full = null;
            boolean startWindow = false;
            synchronized (this) {
                calls.add(call);
                if (calls.size() >= maxBatch) {
                    full = take();
                } else if (!timed) {
                    timed = true;
                    startWindow = true;
                }
            }
            if (full != null) {
                dispatch(node, full);
            } else if (startWindow) {
                try {
                    timer.schedule(this::due, windowNanos, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException closing) {
                    due();
                }
            }
        }

        void due() {
            List<Call> batch;
            synchronized (this) {
                timed = false;
                batch = take();
            }
            if (!batch.isEmpty()) {
                dispatch(node, batch);
            }
        }

        private List<Call> take() {
            List<Call> taken = calls;
            calls = new ArrayList<>();
            return taken;
        }
    }

    private void dispatch(URI node, List<Call> calls) {
        try {
            executor.execute(() -> send(node, calls));
        } catch (RejectedExecutionException e) {
            for (Call call : calls) {
                unknown(call, null, new IOException("client closed", e));
            }
        }
    }

    private void send(URI target, List<Call> all) {
        List<Call> calls = all.stream().filter(call -> !call.future.isDone()).toList();
        URI node = target == ANY ? router.any() : target;
        try {
            if (calls.size() == 1) {
                sendAlone(node, calls.get(0));
            } else if (!calls.isEmpty()) {
                sendBatch(node, calls);
            }
        } catch (RuntimeException | Error e) {
            // A fault of the client's own (an answer it cannot read): as the single call would throw it.
            for (Call call : calls) {
                call.future.completeExceptionally(e);
            }
        }
    }

    /** One call on the single route, as {@code PartitaClient.post} sends it. */
    private void sendAlone(URI node, Call call) {
        BatchItem item = call.item;
        call.attempts++;
        Http1Transport.Answer answer;
        try {
            answer = transport.exchange(node, "POST", PartitaClient.transactionPath(item.accountId()),
                    PartitaClient.transactionBody(item.txId(), item.type(), item.amount()));
        } catch (IOException e) {
            refuseIfUntrusted(node, e);
            router.failed(node);
            retry(node, List.of(new Again(call, 0, e, 0)));
            return;
        }
        int status = answer.status();
        if (PartitaClient.decided(answer)) {
            done(call, node, PartitaClient.txResult(Json.object(answer.body()), status, answer.replayed(),
                    call.attempts));
            return;
        }
        Map<String, Object> problem = PartitaClient.problem(answer.body());
        if (PartitaClient.retried(status)) {
            retry(node, List.of(new Again(call, status, PartitaClient.retriedCause(status, problem),
                    PartitaClient.retryAfterNanos(answer.retryAfter()))));
        } else {
            refused(call, node, PartitaClient.refusal(status, problem));
        }
    }

    @SuppressWarnings("unchecked")
    private void sendBatch(URI node, List<Call> calls) {
        listener.onCoalesced(node, calls.size());
        List<BatchItem> items = new ArrayList<>(calls.size());
        for (Call call : calls) {
            call.attempts++;
            items.add(call.item);
        }
        Http1Transport.Answer answer;
        try {
            answer = transport.exchange(node, "POST", "/transactions/batch", PartitaClient.batchBody(items));
        } catch (IOException e) {
            refuseIfUntrusted(node, e);
            router.failed(node);
            retry(node, calls.stream().map(call -> new Again(call, 0, e, 0)).toList());
            return;
        }
        int status = answer.status();
        if (status / 100 == 2) {
            Object parsed = Json.parse(answer.body());
            if (!(parsed instanceof List<?> answers) || answers.size() != calls.size()) {
                throw new IllegalStateException("a batch of " + calls.size() + " answered " + answer.body());
            }
            List<Again> again = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                Call call = calls.get(i);
                Map<String, Object> one = (Map<String, Object>) answers.get(i);
                int itemStatus = (int) PartitaClient.number(one, "httpStatus");
                if (itemStatus == 200 || itemStatus == 422 && "REJECTED".equals(one.get("status"))) {
                    done(call, node, PartitaClient.txResult(one, itemStatus, Boolean.TRUE.equals(one.get("replayed")),
                            call.attempts));
                } else if (PartitaClient.retried(itemStatus)) {
                    // The item's own 503 carries no Retry-After (the header is the batch's): the backoff alone.
                    again.add(new Again(call, itemStatus, PartitaClient.retriedCause(itemStatus, one), 0));
                } else {
                    refused(call, node, PartitaClient.refusal(itemStatus, one));
                }
            }
            retry(node, again);
            return;
        }
        Map<String, Object> problem = PartitaClient.problem(answer.body());
        if (PartitaClient.retried(status)) {
            long retryAfter = PartitaClient.retryAfterNanos(answer.retryAfter());
            Throwable cause = PartitaClient.retriedCause(status, problem);
            retry(node, calls.stream().map(call -> new Again(call, status, cause, retryAfter)).toList());
            return;
        }
        // Refused as a whole, so nothing of it ran: each call goes alone, to get what its single call gets.
        for (Call call : calls) {
            call.alone = true;
            enqueue(call);
        }
    }

    /** A node the TLS check refused: thrown, and each call of the send ends with it, as the single call would. */
    private static void refuseIfUntrusted(URI node, IOException e) {
        if (e instanceof Http1Transport.Untrusted) {
            throw new TlsException("the TLS check refused " + node + "; nothing was sent", e.getCause());
        }
    }

    /** Each call again after its backoff (and at least its minWait), or its OutcomeUnknownException past its budget. */
    private void retry(URI node, List<Again> again) {
        Map<Long, List<Call>> byWait = new LinkedHashMap<>();
        long now = System.nanoTime();
        for (Again a : again) {
            Call call = a.call();
            long wait = Math.max(call.backoff, a.minWait());
            if (closed || now + wait > call.deadline) {
                if (a.cause() instanceof PartitionLostException lost) {
                    refused(call, node, lost);
                } else {
                    unknown(call, node, a.cause());
                }
                continue;
            }
            listener.onRetry(OPERATION, node, call.attempts, a.status(), wait);
            call.backoff = Math.min(call.backoff * 2, PartitaClient.MAX_BACKOFF_NANOS);
            byWait.computeIfAbsent(wait, w -> new ArrayList<>()).add(call);
        }
        byWait.forEach((wait, calls) -> {
            resending.addAll(calls);
            try {
                timer.schedule(() -> calls.forEach(call -> {
                    resending.remove(call);
                    enqueue(call);
                }), wait, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                calls.forEach(call -> unknown(call, node, new IOException("client closed")));
            }
        });
    }

    private void done(Call call, URI node, TxResult result) {
        if (call.future.complete(result)) {
            listener.onCall(OPERATION, node, call.attempts, System.nanoTime() - call.start,
                    result.applied() ? ClientListener.Outcome.OK : ClientListener.Outcome.REJECTED);
        }
    }

    private void refused(Call call, URI node, PartitaException refusal) {
        if (call.future.completeExceptionally(refusal)) {
            listener.onCall(OPERATION, node, call.attempts, System.nanoTime() - call.start,
                    ClientListener.Outcome.REFUSED);
        }
    }

    private void unknown(Call call, URI node, Throwable last) {
        OutcomeUnknownException unknown = new OutcomeUnknownException("transaction on " + call.item.accountId(),
                call.item.txId(), call.attempts, last);
        if (call.future.completeExceptionally(unknown)) {
            listener.onCall(OPERATION, node, call.attempts, System.nanoTime() - call.start,
                    ClientListener.Outcome.UNKNOWN);
        }
    }

    /**
     * Ends gathering: the calls waiting in a window or for a resend end at once with {@link OutcomeUnknownException}
     * (a resent one may have been applied by an earlier attempt: its txId says); a batch on the wire gets its answer,
     * and any of its calls left unknown ends the same way instead of being sent again.
     */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        List<Call> waiting = new ArrayList<>(resending);
        for (Gather gather : gathers.values()) {
            synchronized (gather) {
                waiting.addAll(gather.take());
            }
        }
        for (Call call : waiting) {
            unknown(call, null, new IOException("client closed"));
        }
    }
}
