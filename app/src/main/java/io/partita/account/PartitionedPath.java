package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import jakarta.inject.Singleton;

import java.util.concurrent.CompletionStage;

/**
 * The default path: the request travels to the account's partition owner as an {@link ApplyTransaction} and runs there
 * on the partition thread. No lock is taken anywhere; per-account order is the order the partition thread runs in.
 * The call does not block: it completes when the owner and its backup have answered.
 */
@Singleton
class PartitionedPath implements TransactionPath {

    private final IMap<String, Account> accounts;

    PartitionedPath(HazelcastInstance hazelcast) {
        this.accounts = Maps.accounts(hazelcast);
    }

    @Override
    public ProcessingMode mode() {
        return ProcessingMode.PARTITIONED;
    }

    @Override
    public CompletionStage<TxOutcome> apply(String accountId, TxRequest request) {
        return accounts.submitToKey(accountId, new ApplyTransaction(request));
    }
}
