package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.query.Predicate;
import io.partita.node.Identified;

import java.io.IOException;
import java.util.Map;

/**
 * Accounts whose tail holds an entry recorded before a cutoff: the {@link JournalWriter}'s sweep.
 * <b>Threads:</b> sent by the journal writer's thread; Hazelcast evaluates it on the members that hold the entries, on
 * several of their threads at once; it holds only the arguments it was built with and never changes them, so sharing
 * it is safe.
 */
public final class StaleTail implements Predicate<String, Account>, Identified {

    private long cutoffAt;

    public StaleTail() {
    }

    StaleTail(long cutoffAt) {
        this.cutoffAt = cutoffAt;
    }

    @Override
    public boolean apply(Map.Entry<String, Account> entry) {
        Account account = entry.getValue();
        return account != null && account.tail().length > 0 && Tail.oldestAt(account.tail()) < cutoffAt;
    }

    @Override
    public int getClassId() {
        return AccountFeature.STALE_TAIL;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(cutoffAt);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        cutoffAt = in.readLong();
    }
}
