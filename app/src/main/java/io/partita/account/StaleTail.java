package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.query.Predicate;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;

/**
 * Accounts whose tail holds an entry recorded before a cutoff, beyond the newest {@code kept} (entries held in the
 * tail on purpose while the cluster is short of members, see {@link TrimTails}): the {@link JournalWriter}'s sweep.
 */
public final class StaleTail implements Predicate<String, Account>, IdentifiedDataSerializable {

    private long cutoffAt;
    private int kept;

    public StaleTail() {
    }

    StaleTail(long cutoffAt, int kept) {
        this.cutoffAt = cutoffAt;
        this.kept = kept;
    }

    @Override
    public boolean apply(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        return account != null && account.tail().length > 0 && Tail.size(account.tail()) > kept
                && Tail.oldestAt(account.tail()) < cutoffAt;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.STALE_TAIL;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(cutoffAt);
        out.writeInt(kept);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        cutoffAt = in.readLong();
        kept = in.readInt();
    }
}
