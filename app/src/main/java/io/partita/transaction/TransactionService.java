package io.partita.transaction;

import io.partita.account.AccountService;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.PartitaProperties;
import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs one transaction on the path its request names (partitioned or locked), bounded by the request timeout, and
 * meters it.
 * Every method may be called on any thread at once (HTTP event loops, batch continuations, transfer
 * coordinators) and returns without blocking on the grid; its fields are final and set once at start.
 *
 * <p>A transaction is answered once its entry is recorded in its account with the account's backup: that is its one
 * replicated write. A retry with the same txId is answered from the account's tail or its journal.
 */
@Singleton
public class TransactionService {

    private final AccountService accounts;
    private final Map<ProcessingMode, TransactionPath> paths = new EnumMap<>(ProcessingMode.class);
    private final ProcessingMode defaultMode;
    private final TransactionMeters meters;
    private final Duration requestTimeout;

    @Inject
    TransactionService(AccountService accounts, List<TransactionPath> paths, PartitaProperties properties,
                       TransactionMeters meters) {
        this.accounts = accounts;
        paths.forEach(path -> this.paths.put(path.mode(), path));
        this.defaultMode = properties.processing().mode();
        this.meters = meters;
        this.requestTimeout = properties.requestTimeout();
    }

    /** A service outside a node (tests on bare members): its metrics go to a registry of their own. */
    public TransactionService(AccountService accounts, List<TransactionPath> paths, PartitaProperties properties) {
        this(accounts, paths, properties, TransactionMeters.detached());
    }

    /** How long a transaction waits for the member that holds its data (partita.request-timeout). */
    Duration requestTimeout() {
        return requestTimeout;
    }

    /** The path {@code mode} names (null: this node's default); a 400 when this node does not offer it. */
    TransactionPath path(ProcessingMode mode) {
        TransactionPath path = paths.get(effectiveMode(mode));
        if (path == null) {
            throw Refusal.invalidField("mode",
                    "mode " + effectiveMode(mode).name().toLowerCase(Locale.ROOT) + " is not available on this node");
        }
        return path;
    }

    /** The path a request takes: the one it names, or this node's default. */
    public ProcessingMode effectiveMode(ProcessingMode requested) {
        return requested == null ? defaultMode : requested;
    }

    /**
     * Runs one transaction on the path {@code mode} names (the node's default when null). Completes with the outcome;
     * a grid failure completes it with the API's translation of it.
     */
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request, ProcessingMode mode) {
        TransactionPath path;
        try {
            path = path(mode);
        } catch (Refusal e) {
            return CompletableFuture.failedFuture(e);
        }
        return applyWith(path, accountId, request);
    }

    /**
     * Runs one transaction on the given path, as {@link #apply(String, TxRequest, ProcessingMode)} does. For callers
     * that bring their own path, such as a transfer that already holds the locks of both its accounts.
     */
    public CompletionStage<TxOutcome> applyWith(TransactionPath path, String accountId, TxRequest request) {
        long started = System.nanoTime();
        // Bounded: a member that cannot reach the data (or holds it while paused) answers 503 instead of hanging.
        return accounts.bounded(path.apply(accountId, request))
                .whenComplete((outcome, failure) ->
                        meters.record(path.mode(), outcome, failure, System.nanoTime() - started));
    }

    public static ProcessingMode parseMode(String mode) {
        if (mode == null || mode.isBlank()) {
            return null;
        }
        try {
            return ProcessingMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Refusal.invalidField("mode", "must be partitioned or locked");
        }
    }
}
