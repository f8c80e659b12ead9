package io.partita.node;

import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * An entry processor that decides one entry's new value on the primary and backs it up as it is: it stores the value
 * through {@link #write} and answers a {@link ReplaceValue} of it as its backup processor, so a backup never decides
 * again. Meant for a single key ({@code executeOnKey}): what it wrote is kept on the instance.
 * <b>Threads:</b> {@code process} and {@link #getBackupProcessor()} run on the partition thread of the entry's owner,
 * one after the other; the backup runs on each backup replica's partition thread.
 *
 * @param <K> the map's key
 * @param <V> the map's value
 * @param <R> what {@code process} answers
 */
public abstract class ValueWriter<K, V, R> implements EntryProcessor<K, V, R>, Identified {

    private transient K key;
    private transient V written;
    private transient long ttlMillis;

    /**
     * Stores {@code value} as the entry's new value, with {@code ttlMillis} if positive (else the map's default), and
     * keeps it for the backup; answers it.
     */
    protected final V write(Map.Entry<K, V> entry, V value, long ttlMillis) {
        this.key = entry.getKey();
        this.written = value;
        this.ttlMillis = ttlMillis;
        ReplaceValue.store(entry, value, ttlMillis);
        return value;
    }

    @Override
    public final EntryProcessor<K, V, R> getBackupProcessor() {
        return written == null ? null : ReplaceValue.of(key, written, ttlMillis);
    }
}
