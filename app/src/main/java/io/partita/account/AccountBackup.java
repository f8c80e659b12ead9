package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The backup half of every entry processor that writes an account: it applies, on the backup replica, the
 * {@link AccountDelta} its primary computed for each key. One class for all of them, and one message per operation
 * whatever the number of keys (an {@code executeOnKeys} over a partition's accounts carries one delta per account).
 * <b>Threads:</b> runs on the partition thread of each backup replica, after the primary's processor ran on the owner,
 * and may run again when Hazelcast sends the backup again (a retry, a migration); it only stores what the primary
 * decided, so a second run leaves the same account. Its {@link Collector} is shared by the partition threads that run
 * one primary instance at once, so it keeps each thread's deltas apart in a concurrent map keyed by thread.
 */
@ClassId(2)
public final class AccountBackup implements EntryProcessor<String, Account, Object>, FieldList,
        HazelcastInstanceAware {

    private Map<String, AccountDelta> deltas;
    /** The member this backup runs on, injected on arrival; its disk takes the backup's copy too. */
    private transient LedgerHost host;

    public AccountBackup() {
    }

    AccountBackup(Map<String, AccountDelta> deltas) {
        this.deltas = deltas;
    }

    @Override
    public Object process(Map.Entry<String, Account> entry) {
        AccountDelta delta = deltas.get(entry.getKey());
        if (delta != null) {
            Account current = entry.getValue();
            Account next = delta.apply(current);
            if (next != null) {
                entry.setValue(next);
                if (host != null) {
                    host.stored(host.partitionOf(entry), entry.getKey(), current, next);
                }
            }
        }
        return null;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.host = MemberLedger.of(hazelcastInstance);
    }

    @Override
    public EntryProcessor<String, Account, Object> getBackupProcessor() {
        return null;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        deltas = fields.map(deltas, ObjectDataOutput::writeString, (out, delta) -> delta.writeTo(out),
                ObjectDataInput::readString, AccountDelta::readFrom);
    }

    /**
     * Gathers, for one entry processor instance, the deltas of the keys it processed in the operation now running on
     * the calling partition thread, to hand them to {@link EntryProcessor#getBackupProcessor()}.
     *
     * <p>Why per thread: Hazelcast runs the same processor instance for every partition of an {@code executeOnKeys},
     * each on its partition's thread, and asks it for its backup processor (twice: whether to back up, then for the
     * operation) on that thread right after its keys are processed. So each thread keeps its own deltas, started anew
     * when the thread moves on to another partition; a backup carries its own partition's changes only.
     */
    static final class Collector {

        /*
         * Keyed by thread, and owned by the processor instance: a ThreadLocal per instance would leave an entry in
         * each partition thread's ThreadLocalMap for every processor that ever ran there (with its deltas) until the
         * map happens to expunge it, measured at about 100 bytes per account of garbage kept alive.
         */
        private final Map<Thread, Partition> current = new ConcurrentHashMap<>(4);

        /**
         * Called as the processor starts on {@code key}: a key of another partition, or one already seen (the same
         * operation run again after a retry), starts a new gathering.
         */
        void visit(int partitionId, String key) {
            Partition partition = current.get(Thread.currentThread());
            if (partition == null || partition.id != partitionId || !partition.visited.add(key)) {
                partition = new Partition(partitionId);
                partition.visited.add(key);
                current.put(Thread.currentThread(), partition);
            }
        }

        /** The delta of the key last visited on this thread. */
        void add(String key, AccountDelta delta) {
            current.get(Thread.currentThread()).deltas.put(key, delta);
        }

        AccountBackup backup() {
            Partition partition = current.get(Thread.currentThread());
            return partition == null || partition.deltas.isEmpty() ? null
                    : new AccountBackup(new LinkedHashMap<>(partition.deltas));
        }

        private static final class Partition {
            final int id;
            final Set<String> visited = new HashSet<>();
            final Map<String, AccountDelta> deltas = new LinkedHashMap<>();

            Partition(int id) {
                this.id = id;
            }
        }
    }
}
