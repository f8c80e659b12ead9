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
 * Moves a transfer's record forward to {@code next}, unless it is already there or further; answers the record as it
 * stands afterwards. Two drivers of one transfer compute the same next record (every step replays its first answer),
 * so "forward only" is all the arbitration they need.
 * Runs on the partition thread of the source account's owner; a run again after a retry or a migration
 * finds the record already there and leaves it, so it is idempotent. Deterministic: the next record travels in the
 * processor. Its backup ({@link ReplaceTransfer}) stores the record it wrote on each backup replica.
 */
@ClassId(21)
public final class AdvanceTransfer
        implements EntryProcessor<TransferKey, Transfer, Transfer>, FieldList, HazelcastInstanceAware {

    /** The member it runs on, injected on arrival: its disk takes the record too. */
    private transient HazelcastInstance member;

    private Transfer next;
    private long terminalTtlMillis;
    /** The key it stored {@code next} under, or null: what its backup replaces. */
    private transient TransferKey advanced;

    public AdvanceTransfer() {
    }

    AdvanceTransfer(Transfer next, long terminalTtlMillis) {
        if (terminalTtlMillis <= 0) {
            throw new IllegalArgumentException("A finished transfer needs a positive time to live");
        }
        this.next = next;
        this.terminalTtlMillis = terminalTtlMillis;
    }

    @Override
    public Transfer process(Map.Entry<TransferKey, Transfer> entry) {
        Transfer current = entry.getValue();
        if (current != null && current.state().rank() >= next.state().rank()) {
            return current;
        }
        ReplaceTransfer.store(entry, next, ttlMillis());
        ReplaceTransfer.stored(member, entry.getKey(), next);
        advanced = entry.getKey();
        return next;
    }

    private long ttlMillis() {
        return next.state().terminal() ? terminalTtlMillis : ReplaceTransfer.NO_EXPIRY;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public EntryProcessor<TransferKey, Transfer, Transfer> getBackupProcessor() {
        return advanced == null ? null : new ReplaceTransfer(advanced, next, ttlMillis());
    }

    @Override
    public void fields(Fields fields) throws IOException {
        next = fields.object(next);
        terminalTtlMillis = fields.int64(terminalTtlMillis);
    }
}
