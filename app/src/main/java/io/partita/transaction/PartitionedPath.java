package io.partita.transaction;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.ApplyTransactions;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.node.ProcessingMode;
import jakarta.inject.Singleton;

import java.util.concurrent.CompletionStage;

/**
 * The default path: the request travels to the account's partition owner in an {@link ApplyTransactions} and runs
 * there on the partition thread. No lock is taken anywhere; per-account order is the order the partition thread runs
 * in. Requests for one partition that arrive together travel together ({@link PartitionBatcher}). The call does not
 * block: it completes when the owner and its backup have answered.
 * Called from any thread at once (HTTP event loops, the node's continuation pool, transfer
 * coordinators on the blocking pool); it holds only its final {@link PartitionBatcher}, which is safe for any thread,
 * and never blocks.
 */
@Singleton
public class PartitionedPath implements TransactionPath {

    private final PartitionBatcher batcher;

    public PartitionedPath(HazelcastInstance hazelcast) {
        this.batcher = new PartitionBatcher(hazelcast);
    }

    @Override
    public ProcessingMode mode() {
        return ProcessingMode.PARTITIONED;
    }

    @Override
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request) {
        return batcher.submit(accountId, request);
    }
}
