package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * An entry processor that decides one entry's new value on the primary and backs it up as it is: it stores the value
 * through {@link #write} and answers a {@link ReplaceValue} of it as its backup processor (a {@link RemoveValue} when
 * it removed the entry), so a backup never decides again. When members keep the records of its {@link #map()} on disk
 * ({@link DiskRecords}), owner and backups write what it stored to their disks too. Meant for a single key
 * ({@code executeOnKey}): what it wrote is kept on the instance.
 * {@code process} and {@link #getBackupProcessor()} run on the partition thread of the entry's owner,
 * one after the other; the backup runs on each backup replica's partition thread.
 *
 * @param <K> the map's key
 * @param <V> the map's value
 * @param <R> what {@code process} answers
 */
public abstract class ValueWriter<K, V, R> implements EntryProcessor<K, V, R>, Identified, HazelcastInstanceAware {

    /** The member it runs on, injected on arrival: its disk takes what it writes. */
    private transient HazelcastInstance member;
    private transient K key;
    private transient boolean wrote;
    private transient V written;
    private transient long ttlMillis;

    /** The name of the map this processor runs on. */
    protected abstract String map();

    @Override
    public final void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    /**
     * Stores {@code value} as the entry's new value, with {@code ttlMillis} if positive (else the map's default), or
     * removes the entry when {@code value} is null; writes it to this member's disk, and keeps it for the backup.
     * Answers it.
     */
    protected final V write(Map.Entry<K, V> entry, V value, long ttlMillis) {
        this.key = entry.getKey();
        this.wrote = true;
        this.written = value;
        this.ttlMillis = ttlMillis;
        if (value == null) {
            entry.setValue(null);
        } else {
            ReplaceValue.store(entry, value, ttlMillis);
        }
        ReplaceValue.storedOnDisk(member, map(), key, value);
        return value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final EntryProcessor<K, V, R> getBackupProcessor() {
        if (!wrote) {
            return null;
        }
        // What a backup answers is dropped.
        return written == null ? (EntryProcessor<K, V, R>) (EntryProcessor<K, V, ?>) new RemoveValue<K, V>(map())
                : ReplaceValue.of(key, written, ttlMillis, map());
    }
}
