package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.query.Predicate;
import io.partita.node.Identified;

import java.io.IOException;
import java.util.Map;

/**
 * Journal entries recorded before a cutoff: those past the retention, which the {@link JournalWriter} deletes with
 * {@code removeAll}. This replaces a time to live per entry, whose expiry record cost about 70 bytes per entry.
 * <b>Threads:</b> sent by the journal writer's thread; Hazelcast evaluates it on the members that hold the entries, on
 * several of their threads at once; it holds only the arguments it was built with and never changes them, so sharing
 * it is safe.
 */
public final class ExpiredBefore implements Predicate<JournalKey, JournalRecord>, Identified {

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
