package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;

import java.io.IOException;
import java.util.Map;

/**
 * Removes an entry, and its record from the member's disk when members keep the records of its map there
 * ({@link DiskRecords}); answers whether there was an entry. Its own backup: each backup replica removes its copy and
 * its record the same way. It decides nothing, so a run again after a retry or a migration changes nothing more.
 * Runs on the partition thread of the entry's owner, then of each backup replica.
 *
 * @param <K> the map's key
 * @param <V> the map's value
 */
@ClassId(86)
public final class RemoveValue<K, V> implements EntryProcessor<K, V, Boolean>, FieldList, HazelcastInstanceAware {

    private String diskMap;
    /** The member it runs on, injected on arrival: its disk forgets the record too. */
    private transient HazelcastInstance member;

    public RemoveValue() {
    }

    /** @param diskMap the map it runs on, when members keep its records on disk; else null */
    public RemoveValue(String diskMap) {
        this.diskMap = diskMap;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public Boolean process(Map.Entry<K, V> entry) {
        boolean present = entry.getValue() != null;
        if (present) {
            entry.setValue(null);
        }
        ReplaceValue.storedOnDisk(member, diskMap, entry.getKey(), null);
        return present;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        diskMap = fields.string(diskMap);
    }
}
