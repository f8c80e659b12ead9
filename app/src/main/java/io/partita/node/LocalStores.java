package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.impl.MapServiceContext;
import com.hazelcast.map.impl.record.Record;
import com.hazelcast.map.impl.recordstore.RecordStore;
import com.hazelcast.query.impl.QueryableEntry;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.PartitionSpecificRunnable;
import com.hazelcast.spi.impl.operationservice.impl.OperationServiceImpl;

import java.time.Duration;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;

/**
 * Reads of this member's own partition stores, for code that already runs on the partition thread of the partition it
 * reads: an entry processor of the {@code accounts} map looking up a txId in the same partition's journal, or whether
 * the partition's sentinel is there. A lookup is a hash probe of the record store: no operation, no invocation, no
 * copy (the maps keep their values as objects). Also the one write that bypasses every map operation: a member's
 * tails, restored just before a split-brain merge reads them ({@code TailRestore}).
 * <b>Threads:</b> {@link #value}, {@link #forEach} and {@link #replaceLocally} must be called on the partition thread
 * of {@code partitionId}, the only thread that changes that partition's stores, so they see a settled state;
 * {@link #onOwnedPartitions} puts a task there from any other thread; the partition id lookups may be called anywhere.
 * One instance per member, kept in its user context, built on first use.
 */
public final class LocalStores {

    private static final String USER_CONTEXT_KEY = "partita.local-stores";
    /** A record store's "as the map is configured" for time-to-live and max-idle. */
    private static final long UNSET = -1;

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
        return PerMember.of(hazelcast, USER_CONTEXT_KEY, LocalStores.class, LocalStores::new);
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

    /**
     * Calls {@code value} with every entry {@code mapName} holds in {@code partitionId} on this member, keys and values
     * deserialized. Call it on that partition's thread.
     */
    public void forEach(String mapName, int partitionId, BiConsumer<Object, Object> value) {
        RecordStore<?> store = maps.getExistingRecordStore(partitionId, mapName);
        if (store == null) {
            return;
        }
        store.forEach((key, record) -> value.accept(serialization.toObject(key),
                serialization.toObject(record.getValue())), false);
    }

    /**
     * Stores {@code value} under {@code key} in this member's own copy of {@code partitionId}, and nowhere else: no
     * backup, no event, no split-brain protection. Only for a store about to be handed to a split-brain merge, which
     * reads it next. Call it on that partition's thread.
     */
    public void replaceLocally(String mapName, int partitionId, Object key, Object value) {
        RecordStore<?> store = maps.getExistingRecordStore(partitionId, mapName);
        if (store != null) {
            store.set(serialization.toData(key), value, UNSET, UNSET);
        }
    }

    /**
     * Runs {@code task} on the partition thread of every partition this member owns, one partition at a time per
     * thread, and waits for all of them, at most {@code timeout}. A task that throws fails the wait with its error.
     * Called off the partition threads.
     */
    public void onOwnedPartitions(IntConsumer task, Duration timeout) throws InterruptedException {
        BitSet owned = new BitSet();
        for (int partition = 0; partition < engine.getPartitionService().getPartitionCount(); partition++) {
            if (owns(partition)) {
                owned.set(partition);
            }
        }
        onPartitions(owned, task, timeout);
    }

    /**
     * Runs {@code task} on the partition thread of each of {@code partitions} (whether this member owns it, backs it
     * up or neither), and waits for all of them, at most {@code timeout}. A task that throws fails the wait with its
     * error. Called off the partition threads.
     */
    public void onPartitions(BitSet partitions, IntConsumer task, Duration timeout) throws InterruptedException {
        OperationServiceImpl operations = engine.getOperationService();
        CountDownLatch done = new CountDownLatch(partitions.cardinality());
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        for (int partition = partitions.nextSetBit(0); partition >= 0;
             partition = partitions.nextSetBit(partition + 1)) {
            int partitionId = partition;
            operations.execute(new PartitionSpecificRunnable() {
                @Override
                public int getPartitionId() {
                    return partitionId;
                }

                @Override
                public void run() {
                    try {
                        task.accept(partitionId);
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        done.countDown();
                    }
                }
            });
        }
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("Partition tasks did not finish within " + timeout);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** Whether this member owns {@code partitionId} now (its primary replica). */
    public boolean owns(int partitionId) {
        return engine.getPartitionService().getPartition(partitionId, false).isLocal();
    }
}
