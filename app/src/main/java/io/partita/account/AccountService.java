package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.metrics.TransactionMeters;
import io.partita.web.ApiException;
import io.partita.web.Failures;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

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

    @Inject
    AccountService(HazelcastInstance hazelcast, List<TransactionPath> paths, PartitaProperties properties,
                   TransactionMeters meters) {
        this.accounts = Maps.accounts(hazelcast);
        this.journal = Maps.journal(hazelcast);
        paths.forEach(path -> this.paths.put(path.mode(), path));
        this.defaultMode = properties.processing().mode();
        this.meters = meters;
    }

    /** A service outside a node (tests on bare members): its metrics go to a registry of their own. */
    AccountService(HazelcastInstance hazelcast, List<TransactionPath> paths, PartitaProperties properties) {
        this(hazelcast, paths, properties, TransactionMeters.detached());
    }

    /** Opens an account; a 409 when the id is taken. */
    public CompletionStage<Account> open(String id, long balance, long overdraftLimit) {
        Account account = Account.open(id, balance, overdraftLimit);
        return accounts.submitToKey(id, new OpenAccount(account))
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
        return accounts.getAsync(id).handle((account, failure) -> {
            if (failure != null) {
                throw Failures.translate(failure);
            }
            return Optional.ofNullable(account);
        });
    }

    /**
     * Runs one transaction on the path {@code mode} names (the node's default when null) and stores its journal
     * entry. Completes with the outcome; a grid failure completes it with the API's translation of it.
     */
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request, ProcessingMode mode) {
        ProcessingMode chosen = mode == null ? defaultMode : mode;
        TransactionPath path = paths.get(chosen);
        if (path == null) {
            return CompletableFuture.failedFuture(ApiException.invalidField("mode",
                    "mode " + mode.name().toLowerCase(Locale.ROOT) + " is not available on this node"));
        }
        long started = System.nanoTime();
        return path.apply(accountId, request)
                .thenCompose(this::journaled)
                .handle((outcome, failure) -> {
                    if (failure != null) {
                        throw Failures.translate(failure);
                    }
                    return outcome;
                })
                .whenComplete((outcome, failure) ->
                        meters.record(chosen, outcome, failure, System.nanoTime() - started));
    }

    private CompletionStage<TxOutcome> journaled(TxOutcome outcome) {
        boolean recorded = outcome.kind() == TxOutcome.Kind.RECORDED || outcome.kind() == TxOutcome.Kind.REPLAYED;
        if (!recorded) {
            return CompletableFuture.completedFuture(outcome);
        }
        JournalEntry entry = outcome.entry();
        return journal.setAsync(entry.key(), entry).thenApply(ignored -> outcome);
    }

    /** The account's journal, newest first; entries older than the retention are gone. */
    public List<JournalEntry> journal(String accountId, int limit) {
        Collection<JournalEntry> entries = journal.values(
                Predicates.partitionPredicate(accountId, Predicates.equal("accountId", accountId)));
        return entries.stream()
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
