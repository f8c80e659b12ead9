package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Removes from accounts' tails the entries the journal now holds. Sent by the {@link JournalWriter} once a journal
 * write was acknowledged with its backup; for each account it names the newest seq that write held, and the tail loses
 * its oldest entries up to that seq for as long as the partition's journal holds them, checked here, entry by entry.
 * So an older entry the write did not carry (queued on a member that crashed, or dropped from a full queue) stops the
 * trim, stays in the tail, and is journaled by the sweep later: an entry is never in neither place.
 *
 * <p>What runs where: on the partition threads of the accounts' owner, sent with {@code executeOnKeys} (one operation
 * per partition); the backup trims the same way ({@link AccountBackup}), after the journal's own backup of those
 * entries, which the same partition sent to the same replica before. Trimming is idempotent.
 */
public final class TrimTails
        implements EntryProcessor<String, Account, Object>, IdentifiedDataSerializable, HazelcastInstanceAware {

    private Map<String, Long> through;
    private final transient LedgerWrites ledger = new LedgerWrites();

    public TrimTails() {
    }

    TrimTails(Map<String, Long> through) {
        this.through = through;
    }

    @Override
    public Object process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        Account account = entry.getValue();
        Long bound = through.get(entry.getKey());
        if (account == null || bound == null) {
            return null;
        }
        long journaled = -1;
        for (JournalEntry held : account.tailEntries(entry.getKey())) {
            if (held.seq() > bound || ledger.journaled(partition, held.accountId(), held.txId()) == null) {
                break;
            }
            journaled = held.seq();
        }
        if (journaled >= 0) {
            ledger.trim(entry, account.trimmedThrough(journaled), journaled);
        }
        return null;
    }

    @Override
    public EntryProcessor<String, Account, Object> getBackupProcessor() {
        return ledger.backup();
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        ledger.attach(hazelcastInstance);
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.TRIM_TAILS;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeInt(through.size());
        for (Map.Entry<String, Long> account : through.entrySet()) {
            out.writeString(account.getKey());
            out.writeLong(account.getValue());
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        int size = in.readInt();
        through = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            through.put(in.readString(), in.readLong());
        }
    }
}
