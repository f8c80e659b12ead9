package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.query.Predicate;
import io.partita.node.Serialization;

import java.io.IOException;
import java.util.Map;

/**
 * Journal entries recorded before a cutoff: those past the retention, which the {@link JournalWriter} deletes with
 * {@code removeAll}. This replaces a time to live per entry, whose expiry record cost about 70 bytes per entry.
 */
public final class ExpiredBefore implements Predicate<JournalKey, JournalRecord>, IdentifiedDataSerializable {

    private long cutoff;

    public ExpiredBefore() {
    }

    ExpiredBefore(long cutoff) {
        this.cutoff = cutoff;
    }

    @Override
    public boolean apply(Map.Entry<JournalKey, JournalRecord> entry) {
        return entry.getValue().at() < cutoff;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return AccountFeature.EXPIRED_BEFORE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(cutoff);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        cutoff = in.readLong();
    }
}
