package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import io.partita.node.ClassId;
import io.partita.node.ReplaceValue;

import java.util.Map;

/**
 * The backup of the transfer processors: a {@link ReplaceValue} (the record the primary computed, under its key) whose
 * time-to-live is the record's own, where 0 means "never expires" rather than the map's default.
 * Runs on the partition thread of each backup replica, after its primary ran on the owner, and may run
 * again when Hazelcast sends the backup again; it stores the same record each time, so a second run changes nothing.
 */
@ClassId(22)
public final class ReplaceTransfer extends ReplaceValue<TransferKey, Transfer, Transfer>
        implements HazelcastInstanceAware {

    /** A record's time to live that means "never expires" (Hazelcast's per-entry TTL of 0). */
    static final long NO_EXPIRY = 0;

    public ReplaceTransfer() {
    }

    ReplaceTransfer(TransferKey key, Transfer transfer, long ttlMillis) {
        super(Map.of(key, transfer), ttlMillis);
    }

    /** The member it runs on, injected on arrival: its disk takes the record too. */
    private transient HazelcastInstance member;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    protected void store(Map.Entry<TransferKey, Transfer> entry, Transfer transfer) {
        store(entry, transfer, ttlMillis());
        stored(member, entry.getKey(), transfer);
    }

    /** Writes the record to the disk of {@code member} (an unfinished one; a finished one leaves it). */
    static void stored(HazelcastInstance member, TransferKey key, Transfer transfer) {
        if (member != null) {
            TransferDisk.KIND.stored(member, key, transfer);
        }
    }

    /**
     * Stores {@code transfer} with its own time to live, whatever the map's configuration says: an unfinished record
     * must never expire (its recovery, and money already debited, depend on it), a finished one lives as long as the
     * journal entries of its steps. On a plain entry (tests) it is stored without one.
     */
    static void store(Map.Entry<TransferKey, Transfer> entry, Transfer transfer, long ttlMillis) {
        storeWithOwnTtl(entry, transfer, ttlMillis);
    }
}
