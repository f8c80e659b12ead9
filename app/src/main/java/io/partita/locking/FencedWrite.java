package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.ReplaceAccount;
import io.partita.cluster.Maps;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Map;
import java.util.function.Predicate;

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
 *
 * <p>The third check keeps a txId from being applied twice whatever the holder read: the write is refused when the
 * account already holds the txId among its recent entries or the journal already holds it (the journal key lives in
 * the account's partition, so this is a local lookup on the same thread). A holder that read the journal before an
 * entry arrived there, and the account after the entry had left it, would otherwise decide the txId anew on an
 * account that has not changed since its read. The holder then reads again and answers the recorded entry.
 */
public final class FencedWrite
        implements EntryProcessor<String, Account, String>, IdentifiedDataSerializable, HazelcastInstanceAware {

    /** What the write came to; returned by name, a plain string on the wire. */
    enum Result {
        WRITTEN,
        /** A holder with a higher fence has written the account: this holder lost its lock. Nothing changed. */
        STALE_FENCE,
        /** The account changed since the holder read it. Nothing changed. */
        MOVED,
        /** The txId is recorded already (on the account or in the journal): read again and replay it. */
        DUPLICATE,
        NOT_FOUND
    }

    private long fence;
    private Account expected;
    private Account next;
    private String txId;
    private transient Account written;
    private transient HazelcastInstance hazelcast;

    public FencedWrite() {
    }

    /**
     * @param fence    the writer's lock fence, positive
     * @param expected the account as the writer read it under its lock
     * @param next     the account the writer decided on; it is stored carrying {@code fence}
     * @param txId     the transaction the writer decided on; the write is refused if it is recorded already
     */
    public FencedWrite(long fence, Account expected, Account next, String txId) {
        if (fence <= 0) {
            throw new IllegalArgumentException("A fenced write needs the fence of a held lock, not " + fence);
        }
        this.fence = fence;
        this.expected = expected;
        this.next = next;
        this.txId = txId;
    }

    @Override
    public String process(Map.Entry<String, Account> entry) {
        IMap<JournalKey, JournalEntry> journal = hazelcast == null ? null : Maps.journalOnPartitionThread(hazelcast);
        return process(entry, key -> journal != null && journal.containsKey(key));
    }

    /** The write with the journal lookup given: {@link #process(Map.Entry)} on a member, a plain function in tests. */
    String process(Map.Entry<String, Account> entry, Predicate<JournalKey> journaled) {
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
        if (recorded(current) || journaled.test(new JournalKey(current.id(), txId))) {
            return Result.DUPLICATE.name();
        }
        written = next.withFence(fence);
        entry.setValue(written);
        return Result.WRITTEN.name();
    }

    private boolean recorded(Account current) {
        return current.recent().stream().anyMatch(recent -> recent.txId().equals(txId));
    }

    @Override
    public EntryProcessor<String, Account, String> getBackupProcessor() {
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
        return Serialization.FENCED_WRITE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(fence);
        out.writeObject(expected);
        out.writeObject(next);
        out.writeString(txId);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        fence = in.readLong();
        expected = in.readObject();
        next = in.readObject();
        txId = in.readString();
    }
}
