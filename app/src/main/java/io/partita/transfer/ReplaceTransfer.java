package io.partita.transfer;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.Identified;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The backup half of the transfer processors: stores the record the primary computed, with the same time to live,
 * without deciding again.
 * <b>Threads:</b> runs on the partition thread of each backup replica, after its primary ran on the owner, and may run
 * again when Hazelcast sends the backup again; it stores the same record each time, so a second run changes nothing.
 */
public final class ReplaceTransfer
        implements EntryProcessor<TransferKey, Transfer, Transfer>, Identified {

    /** A record's time to live that means "never expires" (Hazelcast's per-entry TTL of 0). */
    static final long NO_EXPIRY = 0;

    private Transfer transfer;
    private long ttlMillis;

    public ReplaceTransfer() {
    }

    ReplaceTransfer(Transfer transfer, long ttlMillis) {
        this.transfer = transfer;
        this.ttlMillis = ttlMillis;
    }

    @Override
    public Transfer process(Map.Entry<TransferKey, Transfer> entry) {
        store(entry, transfer, ttlMillis);
        return null;
    }

    long ttlMillis() {
        return ttlMillis;
    }

    /**
     * Stores {@code transfer} with its own time to live, whatever the map's configuration says: an unfinished record
     * must never expire (its recovery, and money already debited, depend on it), a finished one lives as long as the
     * journal entries of its steps. On a plain entry (tests) it is stored without one.
     */
    static void store(Map.Entry<TransferKey, Transfer> entry, Transfer transfer, long ttlMillis) {
        if (entry instanceof ExtendedMapEntry<TransferKey, Transfer> extended) {
            extended.setValue(transfer, ttlMillis, TimeUnit.MILLISECONDS);
        } else {
            entry.setValue(transfer);
        }
    }

    @Override
    public int getClassId() {
        return TransferFeature.REPLACE_TRANSFER;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeObject(transfer);
        out.writeLong(ttlMillis);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        transfer = in.readObject();
        ttlMillis = in.readLong();
    }
}
