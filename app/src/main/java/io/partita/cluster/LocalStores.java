package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.impl.MapServiceContext;
import com.hazelcast.map.impl.record.Record;
import com.hazelcast.map.impl.recordstore.RecordStore;
import com.hazelcast.query.impl.QueryableEntry;
import com.hazelcast.spi.impl.NodeEngineImpl;

import java.util.Map;

/**
 * Reads of this member's own partition stores, for code that already runs on the partition thread of the partition it
 * reads: an entry processor of the {@code accounts} map looking up a txId in the same partition's journal, or whether
 * the partition's sentinel is there. A lookup is a hash probe of the record store: no operation, no invocation, no
 * copy (the maps keep their values as objects).
 *
 * <p>What runs where: {@link #value} must be called on the partition thread of {@code partitionId}, the only thread
 * that changes that partition's stores, so the probe sees a settled state; the partition id lookups may be called
 * anywhere. One instance per member, kept in its user context, built on first use.
 */
public final class LocalStores {

    private static final String USER_CONTEXT_KEY = "partita.local-stores";

    private final NodeEngineImpl engine;
    private final MapServiceContext maps;
    private final SerializationService serialization;

    private LocalStores(HazelcastInstance hazelcast) {
        this.engine = Internals.nodeEngine(hazelcast);
        MapService mapService = engine.getService(MapService.SERVICE_NAME);
        this.maps = mapService.getMapServiceContext();
        this.serialization = engine.getSerializationService();
    }

    public static LocalStores of(HazelcastInstance hazelcast) {
        // Not computeIfAbsent: building one reaches for the others in the same user context map.
        Object existing = hazelcast.getUserContext().get(USER_CONTEXT_KEY);
        if (existing == null) {
            Object built = new LocalStores(hazelcast);
            existing = hazelcast.getUserContext().putIfAbsent(USER_CONTEXT_KEY, built);
            existing = existing == null ? built : existing;
        }
        return (LocalStores) existing;
    }

    /** The partition of an entry an entry processor is given, from its serialized key (not serialized again). */
    public int partitionOf(Map.Entry<?, ?> entry) {
        if (entry instanceof QueryableEntry<?, ?> queryable) {
            return engine.getPartitionService().getPartitionId(queryable.getKeyData());
        }
        return partitionOf(entry.getKey());
    }

    public int partitionOf(Object key) {
        return engine.getPartitionService().getPartitionId(key);
    }

    /**
     * The value {@code mapName} holds under {@code key} in {@code partitionId} on this member, or null. Call it on that
     * partition's thread. The map must keep values as objects (OBJECT in-memory format), as the ledger's maps do.
     */
    public Object value(String mapName, int partitionId, Object key) {
        RecordStore<?> store = maps.getExistingRecordStore(partitionId, mapName);
        if (store == null || store.size() == 0) {
            return null;
        }
        Data data = serialization.toData(key);
        Record<?> record = store.getRecord(data);
        return record == null ? null : record.getValue();
    }

    /** How many entries {@code mapName} holds in {@code partitionId} on this member; a moment old off its thread. */
    public int size(String mapName, int partitionId) {
        RecordStore<?> store = maps.getExistingRecordStore(partitionId, mapName);
        return store == null ? 0 : store.size();
    }

    /** Whether this member owns {@code partitionId} now (its primary replica). */
    public boolean owns(int partitionId) {
        return engine.getPartitionService().getPartition(partitionId, false).isLocal();
    }
}
