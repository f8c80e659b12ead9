package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.partita.cluster.Continuations;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.metrics.TransactionMeters;
import io.partita.web.ApiException;
import io.partita.web.Failures;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Accounts, transactions and the journal, for the API and for other features.
 *
 * <p>A transaction is answered only once its journal entry is stored with its backup: the processing path records
 * the outcome in the account, then this service writes the entry to the journal (a write of the same value, so it
 * may repeat), then the caller hears the answer. If this node dies in between, the client's retry lands on another
 * node, is recognised as a duplicate and writes the entry then; so every acknowledged transaction is in the journal.
 */
@Singleton
public class AccountService {

    private final IMap<String, Account> accounts;
    private final IMap<JournalKey, JournalEntry> journal;
    private final Map<ProcessingMode, TransactionPath> paths = new EnumMap<>(ProcessingMode.class);
    private final ProcessingMode defaultMode;
    private final TransactionMeters meters;
    private final Duration requestTimeout;

    @Inject
    AccountService(HazelcastInstance hazelcast, List<TransactionPath> paths, PartitaProperties properties,
                   TransactionMeters meters) {
        this.accounts = Maps.accounts(hazelcast);
        this.journal = Maps.journal(hazelcast);
        paths.forEach(path -> this.paths.put(path.mode(), path));
        this.defaultMode = properties.processing().mode();
        this.meters = meters;
        this.requestTimeout = properties.requestTimeout();
    }

    /** A service outside a node (tests on bare members): its metrics go to a registry of their own. */
    AccountService(HazelcastInstance hazelcast, List<TransactionPath> paths, PartitaProperties properties) {
        this(hazelcast, paths, properties, TransactionMeters.detached());
    }

    /** Opens an account; a 409 when the id is taken. */
    public CompletionStage<Account> open(String id, long balance, long overdraftLimit) {
        Account account = Account.open(id, balance, overdraftLimit);
        return accounts.submitToKey(id, new OpenAccount(account)).toCompletableFuture()
                .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((opened, failure) -> {
                    if (failure != null) {
                        throw Failures.translate(failure);
                    }
                    if (!opened) {
                        throw ApiException.conflict("account-exists", "Account exists",
                                "An account with id '" + id + "' already exists.");
                    }
                    return account;
                });
    }

    public CompletionStage<Optional<Account>> find(String id) {
        return accounts.getAsync(id).toCompletableFuture()
                .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS).handle((account, failure) -> {
            if (failure != null) {
                throw Failures.translate(failure);
            }
            return Optional.ofNullable(account);
        });
    }

    /** How long a transaction waits for the member that holds its data (partita.request-timeout). */
    Duration requestTimeout() {
        return requestTimeout;
    }

    /** The path {@code mode} names (null: this node's default); a 400 when this node does not offer it. */
    TransactionPath path(ProcessingMode mode) {
        TransactionPath path = paths.get(effectiveMode(mode));
        if (path == null) {
            throw ApiException.invalidField("mode",
                    "mode " + effectiveMode(mode).name().toLowerCase(Locale.ROOT) + " is not available on this node");
        }
        return path;
    }

    /** The path a request takes: the one it names, or this node's default. */
    public ProcessingMode effectiveMode(ProcessingMode requested) {
        return requested == null ? defaultMode : requested;
    }

    /**
     * Runs one transaction on the path {@code mode} names (the node's default when null) and stores its journal
     * entry. Completes with the outcome; a grid failure completes it with the API's translation of it.
     */
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request, ProcessingMode mode) {
        TransactionPath path;
        try {
            path = path(mode);
        } catch (ApiException e) {
            return CompletableFuture.failedFuture(e);
        }
        return applyWith(path, accountId, request);
    }

    /**
     * Runs one transaction on the given path and stores its journal entry, as {@link #apply(String, TxRequest,
     * ProcessingMode)} does. For callers that bring their own path, such as a transfer that already holds the locks
     * of both its accounts.
     */
    public CompletionStage<TxOutcome> applyWith(TransactionPath path, String accountId, TxRequest request) {
        long started = System.nanoTime();
        // Bounded: a member that cannot reach the data (or holds it while paused) answers 503 instead of hanging.
        return path.apply(accountId, request)
                .thenComposeAsync(outcome -> journaled(journal, outcome), Continuations.executor())
                .toCompletableFuture()
                .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((outcome, failure) -> {
                    if (failure != null) {
                        throw Failures.translate(failure);
                    }
                    return outcome;
                })
                .whenComplete((outcome, failure) ->
                        meters.record(path.mode(), outcome, failure, System.nanoTime() - started));
    }

    /**
     * Stores the journal entry of a recorded or replayed outcome, then completes with the outcome. Writing the same
     * entry twice is harmless, so every path and every retry calls it.
     */
    static CompletionStage<TxOutcome> journaled(IMap<JournalKey, JournalEntry> journal, TxOutcome outcome) {
        boolean recorded = outcome.kind() == TxOutcome.Kind.RECORDED || outcome.kind() == TxOutcome.Kind.REPLAYED;
        if (!recorded) {
            return CompletableFuture.completedFuture(outcome);
        }
        JournalEntry entry = outcome.entry();
        return journal.setAsync(entry.key(), entry).thenApply(ignored -> outcome);
    }

    /**
     * The account's journal, newest first; entries older than the retention are gone. 404 for no account.
     *
     * <p>The account is read first and its recent entries are merged in: an entry whose journal write was lost with
     * the node that recorded it is held by the account until it reaches the journal (see {@link Ledger#decide}), and
     * it is part of the account's history all the same. Reading the account before the journal means an entry that
     * moves from one to the other in between is seen in at least one of them.
     */
    public List<JournalEntry> journal(String accountId, int limit) {
        Map<String, JournalEntry> entries = new HashMap<>();
        try {
            Account account = accounts.get(accountId);
            if (account == null) {
                throw ApiException.notFound("Account", accountId);
            }
            account.recent().forEach(entry -> entries.put(entry.txId(), entry));
            journal.values(Predicates.partitionPredicate(accountId, Predicates.equal("accountId", accountId)))
                    .forEach(entry -> entries.put(entry.txId(), entry));
        } catch (RuntimeException e) {
            // A grid failure (a member cut off from the majority, a migration) is a 503 like on the write paths.
            throw Failures.translate(e);
        }
        return entries.values().stream()
                .sorted(Comparator.comparingLong(JournalEntry::seq).reversed())
                .limit(limit)
                .toList();
    }

    public static ProcessingMode parseMode(String mode) {
        if (mode == null || mode.isBlank()) {
            return null;
        }
        try {
            return ProcessingMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("mode", "must be partitioned or locked");
        }
    }
}
