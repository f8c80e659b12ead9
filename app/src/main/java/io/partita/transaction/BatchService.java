package io.partita.transaction;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.AccountFeature;
import io.partita.account.ApplyTransactions;
import io.partita.account.TxOutcome;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.Continuations;
import io.partita.node.HazelcastConfigs;
import io.partita.node.LocalStores;
import io.partita.node.ProcessingMode;
import jakarta.inject.Singleton;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Many transactions in one request. On the partitioned path the batch goes as one {@link ApplyTransactions} over all
 * its accounts: one operation per partition, one message per member; on the locked path each item takes the single-call
 * route. Either way items on one account run in batch order, and an item still unanswered when the batch's time is up
 * comes back as null (a retryable 503 for that item).
 *
 * <p>Called from the Netty event loops, many batches at once. The bean's fields are final; a batch's own state lives in
 * its call, and its rounds run one after another, each started by the completion of the one before (on the node's
 * continuation pool), so no two threads write one slot of it at once.
 */
@Singleton
class BatchService {

    /*
     * Rounds
     *
     * A partition's items go at most PartitionBatcher.MAX_PER_OPERATION per operation, so one batch never holds a
     * partition thread for long; larger shares go in further rounds, each after the previous one answered.
     *
     * Failure
     *
     * A round that fails (its member left mid-way, a backup did not confirm) stops the rounds after it, and what is
     * unanswered is sent again, cut anew by the current owners, up to ATTEMPTS times; re-sending is safe because each
     * item is idempotent by txId, and order holds because nothing after a failed item on its account ran. Items still
     * without an answer then come back as null, which the API answers as a retryable 503 for that item.
     *
     * Time
     *
     * A batch is bounded in time: ATTEMPTS times the request timeout from its arrival. No attempt starts, and on the
     * locked path no item starts, after that; what is left is answered 503 per item, so a large locked batch on a
     * contended account cannot hold its request open for minutes.
     */

    static final int ATTEMPTS = 4;

    private final TransactionService accounts;
    private final HazelcastInstance hazelcast;
    private final LocalStores stores;

    BatchService(TransactionService accounts, HazelcastInstance hazelcast) {
        this.accounts = accounts;
        this.hazelcast = hazelcast;
        this.stores = LocalStores.of(hazelcast);
    }

    /** Now in the cluster's time ({@link ClusterClock}): what a batch arriving here is stamped with. */
    long now() {
        return ClusterClock.now(hazelcast);
    }

    int partitionOf(String accountId) {
        return stores.partitionOf(accountId);
    }

    /** Completes with one outcome per request, in order; null where no definite answer could be had. */
    CompletionStage<List<TxOutcome>> apply(List<String> accountIds, List<TxRequest> requests, ProcessingMode mode) {
        accounts.path(mode);
        TxOutcome[] outcomes = new TxOutcome[requests.size()];
        List<Integer> all = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            all.add(i);
        }
        long deadline = System.nanoTime() + ATTEMPTS * accounts.requestTimeout().toNanos();
        CompletionStage<Void> done = accounts.effectiveMode(mode) == ProcessingMode.PARTITIONED
                ? attempt(accountIds, requests, all, outcomes, 1, deadline)
                : oneByOne(accountIds, requests, mode, outcomes, deadline);
        // Answers that arrive once this member no longer hears a majority are not given (see AccountService.bounded).
        return done.thenApply(ignored -> HazelcastConfigs.majorityPresent(hazelcast) ? Arrays.asList(outcomes)
                : Arrays.asList(new TxOutcome[outcomes.length]));
    }

    /** Sends {@code pending} in rounds; what a failed round left unanswered is tried again after a pause. */
    private CompletionStage<Void> attempt(List<String> accountIds, List<TxRequest> requests, List<Integer> pending,
                                          TxOutcome[] outcomes, int attempt, long deadline) {
        Map<Integer, ArrayDeque<Integer>> byPartition = new LinkedHashMap<>();
        for (int index : pending) {
            byPartition.computeIfAbsent(stores.partitionOf(accountIds.get(index)), p -> new ArrayDeque<>()).add(index);
        }
        return rounds(accountIds, requests, byPartition, outcomes).thenComposeAsync(ignored -> {
            List<Integer> unanswered = pending.stream().filter(index -> outcomes[index] == null).toList();
            long pause = 100L * attempt;
            if (unanswered.isEmpty() || attempt >= ATTEMPTS
                    || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) >= deadline) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS, Continuations.executor()))
                    .thenCompose(later -> attempt(accountIds, requests, unanswered, outcomes, attempt + 1, deadline));
        }, Continuations.executor());
    }

    /**
     * One operation per partition with up to {@link PartitionBatcher#MAX_PER_OPERATION} of its items, all partitions
     * in one call; then the next round, until every item was sent or a round failed.
     */
    private CompletionStage<Void> rounds(List<String> accountIds, List<TxRequest> requests,
                                         Map<Integer, ArrayDeque<Integer>> byPartition, TxOutcome[] outcomes) {
        Map<String, List<TxRequest>> round = new LinkedHashMap<>();
        Map<String, List<Integer>> indices = new LinkedHashMap<>();
        for (ArrayDeque<Integer> queue : byPartition.values()) {
            for (int taken = 0; taken < PartitionBatcher.MAX_PER_OPERATION && !queue.isEmpty(); taken++) {
                int index = queue.poll();
                String accountId = accountIds.get(index);
                round.computeIfAbsent(accountId, id -> new ArrayList<>()).add(requests.get(index));
                indices.computeIfAbsent(accountId, id -> new ArrayList<>()).add(index);
            }
        }
        if (round.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Map<String, TxOutcomes>> sent;
        try {
            // Not IMap.submitToKeys: it answers before the backups acknowledge (BackedUpCalls).
            sent = BackedUpCalls.submitToKeys(hazelcast, AccountFeature.ACCOUNTS, round.keySet(),
                    new ApplyTransactions(round));
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        // A round whose members do not answer within the request timeout stays unanswered (a 503 per item, or
        // another attempt); an answer arriving after that is dropped, since completing a done future does nothing.
        return sent.orTimeout(accounts.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .handle((answers, failure) -> answers)
                .thenComposeAsync(answers -> {
                    if (answers == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    indices.forEach((accountId, items) -> {
                        TxOutcomes answered = answers.get(accountId);
                        for (int i = 0; answered != null && i < items.size() && i < answered.list().size(); i++) {
                            outcomes[items.get(i)] = answered.list().get(i);
                        }
                    });
                    return rounds(accountIds, requests, byPartition, outcomes);
                }, Continuations.executor());
    }

    private CompletionStage<Void> oneByOne(List<String> accountIds, List<TxRequest> requests, ProcessingMode mode,
                                           TxOutcome[] outcomes, long deadline) {
        Map<String, CompletableFuture<TxOutcome>> previousOnAccount = new HashMap<>();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            int index = i;
            String accountId = accountIds.get(i);
            CompletableFuture<TxOutcome> previous = previousOnAccount.getOrDefault(accountId,
                    CompletableFuture.completedFuture(null));
            // A failed item, or one past the deadline, fails the later items on its account unrun: they answer 503
            // and the client retries them in order.
            CompletableFuture<TxOutcome> next = previous
                    .thenComposeAsync(ignored -> System.nanoTime() < deadline
                                    ? accounts.apply(accountId, requests.get(index), mode)
                                    : CompletableFuture.<TxOutcome>failedFuture(new IllegalStateException("late")),
                            Continuations.executor())
                    .toCompletableFuture();
            previousOnAccount.put(accountId, next);
            all.add(next.handle((outcome, failure) -> {
                outcomes[index] = outcome;
                return null;
            }));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }
}
