package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Continuations;
import io.partita.cluster.Maps;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * A slice of a batch, sent in one message to the member that owns the partitions of its accounts, which runs every
 * transaction of the slice there: the entry processor and the journal write become local calls instead of two
 * network round trips each.
 *
 * <p>Runs on a thread of the {@code partita-batch} executor of the target member and waits there for its local
 * operations. Transactions on one account run in the order of the batch (each waits for the previous one on that
 * account); different accounts run concurrently. A partition that migrated away since the slice was cut is simply
 * reached over the network. A transaction that failed transiently answers null, and so does every later one on the
 * same account, which therefore never runs ahead of it: the sender resends them together, in order, which is safe
 * because every step is idempotent by txId.
 */
public final class ApplyBatch implements Callable<List<TxOutcome>>, IdentifiedDataSerializable,
        HazelcastInstanceAware {

    private List<String> accountIds;
    private List<TxRequest> requests;
    private transient HazelcastInstance hazelcast;

    public ApplyBatch() {
    }

    ApplyBatch(List<String> accountIds, List<TxRequest> requests) {
        this.accountIds = accountIds;
        this.requests = requests;
    }

    @Override
    public List<TxOutcome> call() {
        IMap<String, Account> accounts = Maps.accounts(hazelcast);
        IMap<JournalKey, JournalEntry> journal = Maps.journal(hazelcast);
        Map<String, CompletableFuture<TxOutcome>> previousOnAccount = new HashMap<>();
        List<CompletableFuture<TxOutcome>> results = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            String accountId = accountIds.get(i);
            TxRequest request = requests.get(i);
            CompletableFuture<TxOutcome> previous = previousOnAccount.get(accountId);
            // A failure of the previous item fails this one too, unrun, so batch order holds on the resend.
            CompletableFuture<TxOutcome> result = (previous == null
                    ? CompletableFuture.<TxOutcome>completedFuture(null)
                    : previous)
                    .thenComposeAsync(ignored -> accounts.submitToKey(accountId, new ApplyTransaction(request)),
                            Continuations.executor())
                    .thenComposeAsync(outcome -> AccountService.journaled(journal, outcome), Continuations.executor())
                    .toCompletableFuture();
            previousOnAccount.put(accountId, result);
            results.add(result);
        }
        List<TxOutcome> outcomes = new ArrayList<>(results.size());
        for (CompletableFuture<TxOutcome> result : results) {
            outcomes.add(result.exceptionally(failure -> null).join());
        }
        return outcomes;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.APPLY_BATCH;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeInt(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            out.writeString(accountIds.get(i));
            requests.get(i).writeTo(out);
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int size = in.readInt();
        accountIds = new ArrayList<>(size);
        requests = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            accountIds.add(in.readString());
            requests.add(TxRequest.readFrom(in));
        }
    }
}
