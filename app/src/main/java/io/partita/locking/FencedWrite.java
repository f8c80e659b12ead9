package io.partita.locking;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.ReplaceAccount;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;

/**
 * The write of the locked path: stores the account a lock holder computed, only if the holder's fence is not lower
 * than the highest fence the account has seen, and only if the account is still the one the holder read.
 *
 * <p>Runs on the partition thread of the account's owner, so the two checks and the write are one atomic step. The
 * fence check is what makes a lock safe to lose: a holder that paused past its CP session lost its lock, and a newer
 * holder (with a higher fence, FencedLock's fences only grow) may have written since; the paused holder's late write
 * is refused here instead of overwriting the newer one. The second check covers writers that take no lock at all
 * (the partitioned path, recovery of a transfer): if the account moved between the holder's read and this write, the
 * holder reads and decides again. The stored account carries the new fence; the backup receives that account as it
 * is ({@link ReplaceAccount}) and never re-checks.
 */
public final class FencedWrite implements EntryProcessor<String, Account, String>, IdentifiedDataSerializable {

    /** What the write came to; returned by name, a plain string on the wire. */
    enum Result {
        WRITTEN,
        /** A holder with a higher fence has written the account: this holder lost its lock. Nothing changed. */
        STALE_FENCE,
        /** The account changed since the holder read it. Nothing changed. */
        MOVED,
        NOT_FOUND
    }

    private long fence;
    private Account expected;
    private Account next;
    private transient Account written;

    public FencedWrite() {
    }

    /**
     * @param fence    the writer's lock fence, positive
     * @param expected the account as the writer read it under its lock
     * @param next     the account the writer decided on; it is stored carrying {@code fence}
     */
    public FencedWrite(long fence, Account expected, Account next) {
        if (fence <= 0) {
            throw new IllegalArgumentException("A fenced write needs the fence of a held lock, not " + fence);
        }
        this.fence = fence;
        this.expected = expected;
        this.next = next;
    }

    @Override
    public String process(Map.Entry<String, Account> entry) {
        Account current = entry.getValue();
        if (current == null) {
            return Result.NOT_FOUND.name();
        }
        if (fence < current.fence()) {
            return Result.STALE_FENCE.name();
        }
        if (!current.equals(expected)) {
            return Result.MOVED.name();
        }
        written = next.withFence(fence);
        entry.setValue(written);
        return Result.WRITTEN.name();
    }

    @Override
    public EntryProcessor<String, Account, String> getBackupProcessor() {
        return written == null ? null : new ReplaceAccount<>(written);
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.FENCED_WRITE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(fence);
        out.writeObject(expected);
        out.writeObject(next);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        fence = in.readLong();
        expected = in.readObject();
        next = in.readObject();
    }
}
