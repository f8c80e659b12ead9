package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicates;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.DiskShares;
import io.partita.node.HazelcastConfigs;
import io.partita.node.MemberDisk;
import io.partita.node.PartitaProperties;
import io.partita.node.PartitionKeys;
import io.partita.node.PartitionSentinels;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Accounts and their journal, for the API and for other features; the bound and translation of every call on the
 * ledger's maps ({@link #bounded}).
 * Every method may be called on any thread at once (HTTP event loops and the blocking pool, batch
 * continuations on the node's continuation pool, transfer coordinators and recovery) and returns without blocking on
 * the grid, except {@link #journal}, which blocks its caller (the HTTP blocking pool) on one partition query. Its
 * fields are final and set once at start, so it shares nothing mutable.
 *
 * <p>The journal receives a transaction's entry after its account does, in batches ({@link JournalWriter}); until
 * then the account's tail holds it, so the journal listing reads both.
 */
@Singleton
public class AccountService {

    private final HazelcastInstance hazelcast;
    private final IMap<String, Account> accounts;
    private final IMap<JournalKey, JournalRecord> journal;
    private final Duration requestTimeout;

    public AccountService(HazelcastInstance hazelcast, PartitaProperties properties) {
        this.hazelcast = hazelcast;
        this.accounts = AccountFeature.accounts(hazelcast);
        this.journal = AccountFeature.journal(hazelcast);
        this.requestTimeout = properties.requestTimeout();
    }

    /** Now in the cluster's time ({@link ClusterClock}): what a request arriving here is stamped with. */
    public long now() {
        return ClusterClock.now(hazelcast);
    }

    /** Opens an account; refused as existing when the id is taken, as partition-lost when its partition's data is. */
    public CompletionStage<Account> open(String id, long balance, long overdraftLimit) {
        Account account = Account.open(balance, overdraftLimit);
        // The ledger's own call (BackedUpCalls): answered once owner's and backup's disks have the account, without
        // the partition thread waiting for them.
        CompletableFuture<String> opened =
                BackedUpCalls.submitToKey(hazelcast, AccountFeature.ACCOUNTS, id, new OpenAccount(account));
        return bounded(opened).thenApply(result -> {
            switch (OpenAccount.Result.valueOf(result)) {
                case EXISTS -> throw Refusal.exists("Account", "An account with id '" + id + "' already exists.");
                case PARTITION_LOST -> throw Refusal.partitionLost("Account", id, partitionOf(id));
                default -> {
                    return account;
                }
            }
        });
    }

    /** The account, or empty when there is none; refused as partition-lost when its partition's data is lost. */
    public CompletionStage<Optional<Account>> find(String id) {
        return bounded(accounts.getAsync(id)).thenCompose(account -> account != null
                ? CompletableFuture.completedFuture(Optional.of(account))
                : bounded(sentinelPresent(id)).thenApply(present -> {
                    if (!present) {
                        throw Refusal.partitionLost("Account", id, partitionOf(id));
                    }
                    return Optional.<Account>empty();
                }));
    }

    private CompletionStage<Boolean> sentinelPresent(String accountId) {
        IMap<String, Long> sentinels = hazelcast.getMap(PartitionSentinels.MAP);
        return sentinels.getAsync(PartitionKeys.of(hazelcast, partitionOf(accountId))).thenApply(Objects::nonNull);
    }

    public int partitionOf(String accountId) {
        return hazelcast.getPartitionService().getPartition(accountId).getPartitionId();
    }

    /**
     * {@code call} within the request timeout, its failures translated for the API. An answer that arrives after this
     * member stopped hearing from a majority is not given: the write may have been applied only on this side of a
     * network split (an operation waiting for a backup on the other side completes when that member is removed), and
     * the other side may apply the same txId anew; the client learns which from a retry once the sides have merged.
     */
    public <T> CompletableFuture<T> bounded(CompletionStage<T> call) {
        return call.toCompletableFuture()
                .orTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((result, failure) -> {
                    if (failure != null) {
                        throw GridFailures.translate(failure);
                    }
                    if (!HazelcastConfigs.majorityPresent(hazelcast)) {
                        throw GridFailures.cutOff();
                    }
                    return result;
                });
    }

    /** The newest {@code limit} entries of the account's journal ({@link #journal(String, long, int)}). */
    public List<JournalEntry> journal(String accountId, int limit) {
        return journal(accountId, Long.MAX_VALUE, limit);
    }

    /**
     * Up to {@code limit} of the account's journal entries with a seq below {@code beforeSeq}, newest first: a page of
     * its history over the whole retention (the next page is below the smallest seq of this one). Refused as not found
     * for no account, as partition-lost when its partition's data is lost.
     *
     * <p>Three sources, joined by txId: the account's tail (read first: it holds the entries the journal map does not
     * yet, and an entry that moves from one to the other in between is seen in at least one of them), the journal map
     * (its last seconds, or the whole retention in memory mode; no index, so the account's partition is scanned on its
     * owner), and, with the journal on disk, the owner's disk, which holds the whole retention ({@link DiskShares}).
     */
    public List<JournalEntry> journal(String accountId, long beforeSeq, int limit) {
        Map<String, JournalEntry> entries = new HashMap<>();
        try {
            Optional<Account> found = find(accountId).toCompletableFuture().join();
            Account account = found.orElseThrow(() -> Refusal.notFound("Account", accountId));
            account.tailEntries(accountId).forEach(entry -> entries.put(entry.txId(), entry));
            for (Map.Entry<JournalKey, JournalRecord> entry : journal.entrySet(Predicates.partitionPredicate(
                    accountId, JournalPredicates.ofAccounts(Set.of(accountId))))) {
                entries.putIfAbsent(entry.getKey().txId(), entry.getValue().entry(entry.getKey()));
            }
            if (MemberDisk.of(hazelcast).onDisk()) {
                DiskShares.history(hazelcast, accountId, beforeSeq, limit).join().entries()
                        .forEach(stored -> entries.putIfAbsent(stored.txId(), JournalEntry.of(stored)));
            }
        } catch (RuntimeException e) {
            // A grid failure (a member cut off from the majority, a migration) is unavailable, as on the write paths.
            throw GridFailures.translate(e);
        }
        return entries.values().stream()
                .filter(entry -> entry.seq() < beforeSeq)
                .sorted(Comparator.comparingLong(JournalEntry::seq).reversed())
                .limit(limit)
                .toList();
    }
}
