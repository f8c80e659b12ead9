package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Map;

/**
 * Records a new transfer unless its key is taken. Answers null when it recorded this one, else the transfer already
 * recorded under the key (a retry, a concurrent duplicate, or another payload under the same id). The record is
 * unfinished, so it never expires ({@link ReplaceTransfer#store}).
 * Runs on the partition thread of the source account's owner; the backup receives the recorded
 * transfer as it is ({@link ReplaceTransfer}). A run again after a retry or a migration finds the record under the key
 * and answers it, as it answers any retry.
 */
@ClassId(20)
public final class BeginTransfer
        implements EntryProcessor<TransferKey, Transfer, Transfer>, FieldList, HazelcastInstanceAware {

    /** The member it runs on, injected on arrival: its disk takes the record too. */
    private transient HazelcastInstance member;

    private Transfer transfer;
    /** The key it stored the transfer under, or null: what its backup replaces. */
    private transient TransferKey recorded;

    public BeginTransfer() {
    }

    BeginTransfer(Transfer transfer) {
        this.transfer = transfer;
    }

    @Override
    public Transfer process(Map.Entry<TransferKey, Transfer> entry) {
        if (entry.getValue() != null) {
            return entry.getValue();
        }
        ReplaceTransfer.store(entry, transfer, ReplaceTransfer.NO_EXPIRY);
        ReplaceTransfer.stored(member, entry.getKey(), transfer);
        recorded = entry.getKey();
        return null;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public EntryProcessor<TransferKey, Transfer, Transfer> getBackupProcessor() {
        return recorded == null ? null : new ReplaceTransfer(recorded, transfer, ReplaceTransfer.NO_EXPIRY);
    }

    @Override
    public void fields(Fields fields) throws IOException {
        transfer = fields.object(transfer);
    }
}
