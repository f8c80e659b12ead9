package io.partita.transaction;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.hazelcast.core.HazelcastInstance;
import io.partita.account.AccountFeature;
import io.partita.account.ApplyTransactions;
import io.partita.account.TxOutcome;
import io.partita.account.TxOutcomes;
import io.partita.account.TxRequest;
import io.partita.node.BackedUpCalls;
import io.partita.node.LocalStores;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends this node's partitioned-mode transactions to their partitions' owners, many per operation when many wait: each
 * partition has at most one {@link ApplyTransactions} in flight from this node, and the transactions that arrive for
 * it meanwhile go together in the next one, as one operation and one backup message. At low load a transaction is sent
 * at once, alone; under load the batches grow with it ("smart batching"), so the cost per transaction falls as the
 * load rises instead of the queue.
 * <b>Threads:</b> {@link #submit} is called by any thread (HTTP event loops, benchmark threads); each partition's lane
 * is guarded by its own monitor, held only to queue or take transactions, never across a grid call. The next batch is
 * sent from the thread that completes the previous one (the node's continuation pool), never from a partition or
 * response thread.
 *
 * <p>Failure: if an operation fails (its member left, the backup did not confirm, a timeout), every transaction in it
 * completes with that failure, which the API answers as a retryable 503; retrying with the same id is safe. Order:
 * transactions on one account are applied in the order they were submitted from this node.
 */
final class PartitionBatcher {

    /** The most transactions one operation carries, so that it stays short on its partition thread. */
    static final int MAX_PER_OPERATION = 256;

    private final HazelcastInstance hazelcast;
    private final LocalStores stores;
    private final Lane[] lanes;

    PartitionBatcher(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.stores = LocalStores.of(hazelcast);
        int partitions = hazelcast.getPartitionService().getPartitions().size();
        this.lanes = new Lane[partitions];
        for (int i = 0; i < partitions; i++) {
            lanes[i] = new Lane();
        }
    }

    CompletionStage<TxOutcome> submit(String accountId, TxRequest request) {
        Pending pending = new Pending(accountId, request, new CompletableFuture<>());
        Lane lane = lanes[stores.partitionOf(accountId)];
        synchronized (lane) {
            if (lane.inFlight) {
                lane.waiting.add(pending);
                return pending.answer;
            }
            lane.inFlight = true;
        }
        send(lane, List.of(pending));
        return pending.answer;
    }

    private void send(Lane lane, List<Pending> batch) {
        Map<String, List<TxRequest>> requests = new LinkedHashMap<>();
        Map<String, List<Pending>> byAccount = new LinkedHashMap<>();
        for (Pending pending : batch) {
            requests.computeIfAbsent(pending.accountId, id -> new ArrayList<>()).add(pending.request);
            byAccount.computeIfAbsent(pending.accountId, id -> new ArrayList<>()).add(pending);
        }
        call(requests).whenComplete((outcomes, failure) -> {
            byAccount.forEach((accountId, pendings) -> complete(pendings,
                    outcomes == null ? null : outcomes.get(accountId), failure));
            List<Pending> next = lane.next();
            if (!next.isEmpty()) {
                send(lane, next);
            }
        });
    }

    /** One operation for the batch; a call that cannot even be sent (the member is shutting down) fails it. */
    private CompletionStage<Map<String, TxOutcomes>> call(Map<String, List<TxRequest>> requests) {
        ApplyTransactions processor = new ApplyTransactions(requests);
        try {
            if (requests.size() == 1) {
                String accountId = requests.keySet().iterator().next();
                return BackedUpCalls.submitToKey(hazelcast, AccountFeature.ACCOUNTS, accountId, processor)
                        .thenApply(outcomes -> Map.of(accountId, outcomes));
            }
            // Not IMap.submitToKeys: it answers before the backups acknowledge (BackedUpCalls).
            return BackedUpCalls.submitToKeys(hazelcast, AccountFeature.ACCOUNTS, requests.keySet(), processor);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void complete(List<Pending> pendings, TxOutcomes outcomes, Throwable failure) {
        for (int i = 0; i < pendings.size(); i++) {
            CompletableFuture<TxOutcome> answer = pendings.get(i).answer;
            if (failure != null) {
                answer.completeExceptionally(failure);
            } else if (outcomes == null || outcomes.list().size() <= i) {
                answer.completeExceptionally(new IllegalStateException("No outcome for a transaction sent"));
            } else {
                answer.complete(outcomes.list().get(i));
            }
        }
    }

    private record Pending(String accountId, TxRequest request, CompletableFuture<TxOutcome> answer) {
    }

    /** One partition's queue; guarded by its own monitor. */
    private static final class Lane {
        @GuardedBy("this")
        private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
        /** Whether a batch of this lane is in flight: then a new transaction waits instead of going out. */
        @GuardedBy("this")
        private boolean inFlight;

        /** The next batch to send, or none (then nothing is in flight any more). */
        synchronized List<Pending> next() {
            if (waiting.isEmpty()) {
                inFlight = false;
                return List.of();
            }
            List<Pending> batch = new ArrayList<>(Math.min(waiting.size(), MAX_PER_OPERATION));
            while (!waiting.isEmpty() && batch.size() < MAX_PER_OPERATION) {
                batch.add(waiting.poll());
            }
            return batch;
        }
    }
}
