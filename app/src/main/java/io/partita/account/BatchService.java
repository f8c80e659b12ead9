package io.partita.account;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.partition.PartitionService;
import io.partita.cluster.Continuations;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import jakarta.inject.Singleton;

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
 * Many transactions in one request. On the partitioned path the batch is cut into one {@link ApplyBatch} slice per
 * member that owns some of its accounts, so a batch of thousands costs a few network round trips. On the locked path
 * each item takes the single-call route. Either way items on one account run in batch order.
 *
 * <p>A slice that fails (its member left mid-way) or items that failed transiently are re-sent, cut again by the new
 * owners, up to {@link #ATTEMPTS} times; re-sending is safe because each item is idempotent by txId. An item that
 * failed stops the later items on its account, so they are re-sent after it rather than run ahead of it. Items still
 * without an answer then come back as null, which the API answers as a retryable 503 for that item.
 *
 * <p>A batch is bounded in time: {@link #ATTEMPTS} times the request timeout from its arrival. No attempt starts, and
 * on the locked path no item starts, after that; what is left is answered 503 per item, so a large locked batch on a
 * contended account cannot hold its request open for minutes.
 */
@Singleton
class BatchService {

    static final int ATTEMPTS = 4;

    private final AccountService accounts;
    private final PartitionService partitions;
    private final IExecutorService executor;
    private final HazelcastInstance hazelcast;

    BatchService(AccountService accounts, HazelcastInstance hazelcast) {
        this.accounts = accounts;
        this.hazelcast = hazelcast;
        this.partitions = hazelcast.getPartitionService();
        this.executor = hazelcast.getExecutorService(Maps.BATCH_EXECUTOR);
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
                ? bySlices(accountIds, requests, all, outcomes, 1, deadline)
                : oneByOne(accountIds, requests, mode, outcomes, deadline);
        return done.thenApply(ignored -> Arrays.asList(outcomes));
    }

    private CompletionStage<Void> bySlices(List<String> accountIds, List<TxRequest> requests, List<Integer> pending,
                                           TxOutcome[] outcomes, int attempt, long deadline) {
        Map<Member, List<Integer>> byOwner = new LinkedHashMap<>();
        for (int index : pending) {
            Member owner = partitions.getPartition(accountIds.get(index)).getOwner();
            byOwner.computeIfAbsent(owner == null ? hazelcast.getCluster().getLocalMember() : owner,
                    member -> new ArrayList<>()).add(index);
        }
        List<CompletableFuture<Void>> slices = new ArrayList<>();
        for (Map.Entry<Member, List<Integer>> slice : byOwner.entrySet()) {
            List<Integer> indices = slice.getValue();
            ApplyBatch task = new ApplyBatch(indices.stream().map(accountIds::get).toList(),
                    indices.stream().map(requests::get).toList());
            CompletableFuture<List<TxOutcome>> sent = new CompletableFuture<>();
            executor.submitToMember(task, slice.getKey(), new ExecutionCallback<>() {
                @Override
                public void onResponse(List<TxOutcome> response) {
                    sent.complete(response);
                }

                @Override
                public void onFailure(Throwable failure) {
                    sent.completeExceptionally(failure);
                }
            });
            // A slice whose member does not answer within the request timeout stays unanswered (a 503 per item, or
            // another attempt); an answer arriving after that is dropped, since completing a done future does nothing.
            slices.add(sent.orTimeout(accounts.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    .handle((response, failure) -> {
                        if (response != null) {
                            for (int i = 0; i < indices.size(); i++) {
                                outcomes[indices.get(i)] = response.get(i);
                            }
                        }
                        return null;
                    }));
        }
        return CompletableFuture.allOf(slices.toArray(CompletableFuture[]::new)).thenComposeAsync(ignored -> {
            List<Integer> unanswered = pending.stream().filter(index -> outcomes[index] == null).toList();
            long pause = 100L * attempt;
            if (unanswered.isEmpty() || attempt >= ATTEMPTS
                    || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) >= deadline) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.supplyAsync(() -> null,
                            CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS, Continuations.executor()))
                    .thenCompose(later -> bySlices(accountIds, requests, unanswered, outcomes, attempt + 1, deadline));
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
