package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The backup half of the entry processors that decide a new value on the primary: it carries the values the primary
 * computed, by key, and stores them as they are (with the primary's time-to-live, if it set one), so a backup never
 * re-decides and never disagrees. When it names a map whose records members keep on disk ({@link DiskRecords}), the
 * member it runs on writes them to its disk too. One processor for every feature's values; a feature that needs
 * another rule for the time-to-live extends it and overrides only {@link #store(Map.Entry, Object)} (and its class
 * id). Run as a primary ({@code executeOnKey}), it is a put that is its own backup.
 * Runs on the partition thread of each backup replica, after its primary ran on the owner (run as a
 * primary, it is that primary), and may run again when Hazelcast sends the backup again; it stores the same values each
 * time, so a second run changes nothing.
 *
 * <p>By key, because for a batch ({@code executeOnKeys}) Hazelcast asks the primary's processor for its backup
 * processor once, after the whole batch, and runs that one processor on every key of the batch on the backup. A key
 * the primary left unchanged is not in the map and is left alone.
 */
@ClassId(83)
public class ReplaceValue<K, V, R> implements EntryProcessor<K, V, R>, FieldList, HazelcastInstanceAware {

    private Map<K, V> values;
    private long ttlMillis;
    /** The map whose records the disk keeps ({@link DiskRecords#mapName()}), or null: nothing goes to disk. */
    private String diskMap;
    /** The member it runs on, injected on arrival: its disk takes the values too. */
    private transient HazelcastInstance member;

    public ReplaceValue() {
    }

    /** @param ttlMillis the entries' time-to-live from now; 0 keeps the map's default */
    public ReplaceValue(Map<K, V> values, long ttlMillis) {
        this(values, ttlMillis, null);
    }

    /**
     * @param ttlMillis the entries' time-to-live from now; 0 keeps the map's default
     * @param diskMap   the map the values belong to, when members keep its records on disk; else null
     */
    public ReplaceValue(Map<K, V> values, long ttlMillis, String diskMap) {
        this.values = new LinkedHashMap<>(values);
        this.ttlMillis = ttlMillis;
        this.diskMap = diskMap;
    }

    public static <K, V, R> ReplaceValue<K, V, R> of(K key, V value, long ttlMillis, String diskMap) {
        return new ReplaceValue<>(Map.of(key, value), ttlMillis, diskMap);
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public final R process(Map.Entry<K, V> entry) {
        V value = values.get(entry.getKey());
        if (value != null) {
            store(entry, value);
            storedOnDisk(member, diskMap, entry.getKey(), value);
        }
        return null;
    }

    /**
     * Writes {@code value} under {@code key} (a null value: its deletion) to the disk of {@code member}, now, when
     * members keep the records of {@code diskMap} on disk; nothing without a member (a plain entry in tests) or a map.
     * On the partition thread that stored it.
     */
    @SuppressWarnings("unchecked")
    static <K, V> void storedOnDisk(HazelcastInstance member, String diskMap, K key, V value) {
        if (member == null || diskMap == null) {
            return;
        }
        for (DiskRecords<?, ?> kind : DiskRecords.of(member)) {
            if (kind.mapName().equals(diskMap)) {
                ((DiskRecords<K, V>) kind).stored(member, key, value);
            }
        }
    }

    /** Stores {@code value} as the primary did: with {@link #ttlMillis()} if positive, else the map's default. */
    protected void store(Map.Entry<K, V> entry, V value) {
        store(entry, value, ttlMillis);
    }

    /** The time-to-live the primary stored its values with, in milliseconds. */
    public final long ttlMillis() {
        return ttlMillis;
    }

    /** Stores {@code value} with {@code ttlMillis} if positive, else with the map's default time-to-live. */
    public static <K, V> void store(Map.Entry<K, V> entry, V value, long ttlMillis) {
        if (ttlMillis > 0) {
            storeWithOwnTtl(entry, value, ttlMillis);
        } else {
            entry.setValue(value);
        }
    }

    /**
     * Stores {@code value} with exactly {@code ttlMillis}, whatever the map's configuration says: Hazelcast's
     * per-entry time-to-live, where 0 means "never expires". On a plain entry (tests) it is stored without one.
     */
    public static <K, V> void storeWithOwnTtl(Map.Entry<K, V> entry, V value, long ttlMillis) {
        if (entry instanceof ExtendedMapEntry<K, V> extended) {
            extended.setValue(value, ttlMillis, TimeUnit.MILLISECONDS);
        } else {
            entry.setValue(value);
        }
    }

    @Override
    public final void fields(Fields fields) throws IOException {
        values = fields.map(values, ObjectDataOutput::writeObject, ObjectDataOutput::writeObject,
                ObjectDataInput::readObject, ObjectDataInput::readObject);
        ttlMillis = fields.int64(ttlMillis);
        diskMap = fields.string(diskMap);
    }
}
