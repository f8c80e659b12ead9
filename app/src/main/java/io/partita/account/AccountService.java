package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.partita.cluster.HazelcastConfigs;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitionKeys;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Accounts, transactions and the journal, for the API and for other features.
 * <b>Threads:</b> every method may be called on any thread at once (HTTP event loops and the blocking pool, batch
 * continuations on the node's continuation pool, transfer coordinators and recovery) and returns without blocking on
 * the grid, except {@link #journal}, which blocks its caller (the HTTP blocking pool) on one partition query. Its
 * fields are final and set once at start, so it shares nothing mutable; an account's order is kept by its partition
 * thread or its lock.
 *
 * <p>A transaction is answered once its entry is recorded in its account with the account's backup: that is its one
 * replicated write. The journal receives the entry later, in batches ({@link JournalWriter}); until then the
 * account's tail holds it, so a retry is answered from one or the other and the journal listing reads both.
 */
@Singleton
public class AccountService {

    private final HazelcastInstance hazelcast;
    private final IMap<String, Account> accounts;
    private final IMap<JournalKey, JournalRecord> journal;
    private final Map<ProcessingMode, TransactionPath> paths = new EnumMap<>(ProcessingMode.class);
    private final ProcessingMode defaultMode;
    private final TransactionMeters meters;
    private final Duration requestTimeout;

    @Inject
    AccountService(HazelcastInstance hazelcast, List<TransactionPath> paths, PartitaProperties properties,
                   TransactionMeters meters) {
        this.hazelcast = hazelcast;
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

    /** Opens an account; 409 when the id is taken, 503 when its partition's data is lost. */
    public CompletionStage<Account> open(String id, long balance, long overdraftLimit) {
        Account account = Account.open(balance, overdraftLimit);
        return bounded(accounts.submitToKey(id, new OpenAccount(account))).thenApply(result -> {
            switch (OpenAccount.Result.valueOf(result)) {
                case EXISTS -> throw ApiException.conflict("account-exists", "Account exists",
                        "An account with id '" + id + "' already exists.");
                case PARTITION_LOST -> throw ApiException.partitionLost("Account", id, partitionOf(id));
                default -> {
                    return account;
                }
            }
        });
    }

    /** The account, or empty when there is none; 503 when its partition's data is lost. */
    public CompletionStage<Optional<Account>> find(String id) {
        return bounded(accounts.getAsync(id)).thenCompose(account -> account != null
                ? CompletableFuture.completedFuture(Optional.of(account))
                : bounded(sentinelPresent(id)).thenApply(present -> {
                    if (!present) {
                        throw ApiException.partitionLost("Account", id, partitionOf(id));
                    }
                    return Optional.<Account>empty();
                }));
    }

    private CompletionStage<Boolean> sentinelPresent(String accountId) {
        IMap<String, Long> sentinels = hazelcast.getMap(Maps.SENTINELS);
        return sentinels.getAsync(PartitionKeys.of(hazelcast, partitionOf(accountId))).thenApply(Objects::nonNull);
    }

    int partitionOf(String accountId) {
        return hazelcast.getPartitionService().getPartition(accountId).getPartitionId();
    }

    /**
     * {@code call} within the request timeout, its failures translated for the API. An answer that arrives after this
     * member stopped hearing from a majority is not given: the write may have been applied only on this side of a
     * network split (an operation waiting for a backup on the other side completes when that member is removed), and
     * the other side may apply the same txId anew; the client learns which from a retry once the sides have merged.
     */
    private <T> CompletableFuture<T> bounded(CompletionStage<T> call) {
        return call.toCompletableFuture()
                .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((result, failure) -> {
                    if (failure != null) {
                        throw Failures.translate(failure);
                    }
                    if (!HazelcastConfigs.majorityPresent(hazelcast)) {
                        throw Failures.cutOff();
                    }
                    return result;
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
     * Runs one transaction on the path {@code mode} names (the node's default when null). Completes with the outcome;
     * a grid failure completes it with the API's translation of it.
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
     * Runs one transaction on the given path, as {@link #apply(String, TxRequest, ProcessingMode)} does. For callers
     * that bring their own path, such as a transfer that already holds the locks of both its accounts.
     */
    public CompletionStage<TxOutcome> applyWith(TransactionPath path, String accountId, TxRequest request) {
        long started = System.nanoTime();
        // Bounded: a member that cannot reach the data (or holds it while paused) answers 503 instead of hanging.
        return bounded(path.apply(accountId, request))
                .whenComplete((outcome, failure) ->
                        meters.record(path.mode(), outcome, failure, System.nanoTime() - started));
    }

    /**
     * The account's journal, newest first; entries older than the retention are gone. 404 for no account, 503 when
     * its partition's data is lost.
     *
     * <p>The account is read first and its tail merged in: the tail holds the entries the journal does not yet, and an
     * entry that moves from one to the other in between is seen in at least one of them. The journal has no index, so
     * its entries are found by scanning the account's partition (on its owner).
     */
    public List<JournalEntry> journal(String accountId, int limit) {
        Map<String, JournalEntry> entries = new HashMap<>();
        try {
            Optional<Account> found = find(accountId).toCompletableFuture().join();
            Account account = found.orElseThrow(() -> ApiException.notFound("Account", accountId));
            for (Map.Entry<JournalKey, JournalRecord> entry : journal.entrySet(Predicates.partitionPredicate(
                    accountId, JournalPredicates.ofAccounts(Set.of(accountId))))) {
                entries.put(entry.getKey().txId(), entry.getValue().entry(entry.getKey()));
            }
            account.tailEntries(accountId).forEach(entry -> entries.put(entry.txId(), entry));
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
