package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Maps;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The partitioned path: one transaction on one account, decided by {@link Ledger} and applied in place.
 *
 * <p>Runs on the partition thread of the account's owner, so no other operation on that account interleaves and no
 * lock is needed. It may read the account's journal because the journal key is partitioned by account id and so
 * lives in the same partition (Hazelcast allows same-partition access from an entry processor). On the backup it does
 * not run again: {@link #getBackupProcessor()} ships the computed account as a {@link ReplaceAccount}.
 *
 * <p>On a retry after a timeout or a member loss the processor may run a second time with the same request; the
 * duplicate check in {@link Ledger} then answers with the first outcome, so it is applied at most once.
 */
public final class ApplyTransaction
        implements EntryProcessor<String, Account, TxOutcome>, IdentifiedDataSerializable, HazelcastInstanceAware {

    private TxRequest request;
    private transient HazelcastInstance hazelcast;
    private transient Account written;

    public ApplyTransaction() {
    }

    public ApplyTransaction(TxRequest request) {
        this.request = request;
    }

    @Override
    public TxOutcome process(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        if (account == null) {
            return TxOutcome.notFound();
        }
        IMap<JournalKey, JournalEntry> journal = hazelcast == null ? null : Maps.journalOnPartitionThread(hazelcast);
        Ledger.Decision decision = Ledger.decide(account, request, key -> journal == null ? null : journal.get(key),
                key -> journal != null && journal.containsKey(key));
        if (decision.account() != null) {
            entry.setValue(decision.account());
            written = decision.account();
            writeMissing(journal, decision.toJournal());
        }
        return decision.outcome();
    }

    /**
     * Writes the journal entries the node that recorded them never wrote (it died before it could), from here, on the
     * same partition. The account keeps them until a later transaction finds them in the journal.
     */
    public static void writeMissing(IMap<JournalKey, JournalEntry> journal, List<JournalEntry> entries) {
        if (journal != null) {
            entries.forEach(missing -> journal.setAsync(missing.key(), missing));
        }
    }

    @Override
    public EntryProcessor<String, Account, TxOutcome> getBackupProcessor() {
        return written == null ? null : new ReplaceAccount<>(written);
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
        return Serialization.APPLY_TRANSACTION;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        request.writeTo(out);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        request = TxRequest.readFrom(in);
    }
}
