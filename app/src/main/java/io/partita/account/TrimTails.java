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
 * Removes from accounts' tails the entries the journal now holds: for each account, the tail loses its oldest entries,
 * up to a bound, for as long as the partition's journal holds them, checked here entry by entry. So an older entry the
 * journal does not hold (queued on a member that crashed, or dropped from a full queue) stops the trim and stays in
 * the tail. The journal writer's sweep sends it over every account with a stale tail (no bound: through its version),
 * and the answer for each account is the account if entries the journal lacks are left in its tail, which the sweep
 * then writes: an entry is never in neither place. A busy account is trimmed by its own next write instead
 * ({@code LedgerWrites}); this is for the idle ones.
 *
 * <p>While the cluster has fewer members than it should ({@code partita.cluster-size}), each tail keeps its newest
 * {@code kept} entries even once journaled: if the missing members are the other side of a network split, this side's
 * recent transactions are then still in its accounts when the two sides merge ({@link AccountUnion}).
 *
 * <p>What runs where: on the partition threads of the accounts' owner, one operation per partition; the backup trims
 * the same way ({@link AccountBackup}), after the journal's own backup of those entries, which the same partition sent
 * to the same replica before. Trimming is idempotent.
 */
public final class TrimTails
        implements EntryProcessor<String, Account, Object>, IdentifiedDataSerializable, HazelcastInstanceAware {

    /** The newest seq to trim through per account, or null for every account's version. */
    private Map<String, Long> through;
    private int kept;
    private final transient LedgerWrites ledger = new LedgerWrites();

    public TrimTails() {
    }

    TrimTails(Map<String, Long> through, int kept) {
        this.through = through;
        this.kept = kept;
    }

    @Override
    public Object process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        Account account = entry.getValue();
        Long bound = through == null ? (account == null ? null : account.version()) : through.get(entry.getKey());
        if (account == null || bound == null) {
            return null;
        }
        long limit = Math.min(bound, account.version() - kept);
        long journaled = -1;
        for (JournalEntry held : account.tailEntries(entry.getKey())) {
            if (held.seq() > limit || ledger.journaled(partition, held.accountId(), held.txId()) == null) {
                break;
            }
            journaled = held.seq();
        }
        if (journaled >= 0) {
            account = account.trimmedThrough(journaled);
            ledger.trim(entry, account, journaled);
        }
        return Tail.size(account.tail()) > kept ? account : null;
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
        out.writeInt(kept);
        out.writeInt(through == null ? -1 : through.size());
        if (through == null) {
            return;
        }
        for (Map.Entry<String, Long> account : through.entrySet()) {
            out.writeString(account.getKey());
            out.writeLong(account.getValue());
        }
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        kept = in.readInt();
        int size = in.readInt();
        if (size < 0) {
            through = null;
            return;
        }
        through = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            through.put(in.readString(), in.readLong());
        }
    }
}
