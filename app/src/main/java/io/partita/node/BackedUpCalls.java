package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.IPartitionService;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.impl.MapEntries;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.impl.operation.MultipleEntryOperation;
import com.hazelcast.spi.impl.NodeEngineImpl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * An entry processor on several keys, one operation per partition, answered only once each operation's backups have
 * acknowledged it. {@code IMap.submitToKeys} and {@code executeOnKeys} send the same operations, but through
 * Hazelcast's partition-iterating path, which answers as soon as the primaries are done and does not wait for the sync
 * backups (as {@code OperationService.invokeOnPartitions} documents): a write acknowledged that way can be lost with
 * its owner's crash, or be missing from the majority's side of a network split. Here each partition's
 * {@code MultipleEntryOperation} is an ordinary invocation instead, as {@code submitToKey}'s is, and its backups are
 * sync (Hazelcast's always sends a multi-key processor's backups async, {@link Entries}): it waits for the backup
 * acknowledgements and, with fail-on-indeterminate-operation-state, fails when they do not come.
 * Call from any thread but a partition thread; the future completes on the node's continuation pool
 * ({@link Continuations}), once every partition has answered (or fails with the first failure). It keeps no state
 * between calls.
 */
public final class BackedUpCalls {

    private BackedUpCalls() {
    }

    /** The processor's result for each key it returned one for; keys in several partitions are sent in parallel. */
    public static <K, V, R> CompletableFuture<Map<K, R>> submitToKeys(HazelcastInstance hazelcast, String mapName,
                                                                      Collection<K> keys,
                                                                      EntryProcessor<K, V, R> processor) {
        NodeEngineImpl engine = Internals.nodeEngine(hazelcast);
        SerializationService serialization = engine.getSerializationService();
        IPartitionService partitions = engine.getPartitionService();
        Map<Integer, Set<Data>> byPartition = new HashMap<>();
        for (K key : keys) {
            Data data = serialization.toData(key);
            byPartition.computeIfAbsent(partitions.getPartitionId(data), p -> new LinkedHashSet<>()).add(data);
        }
        List<CompletableFuture<MapEntries>> calls = new ArrayList<>(byPartition.size());
        byPartition.forEach((partition, partitionKeys) -> calls.add(engine.getOperationService()
                .invokeOnPartition(MapService.SERVICE_NAME, new Entries(mapName, partitionKeys, processor),
                        partition)));
        // Completed on the continuation pool, failures too, never on a response thread: whoever continues from the
        // answer may make further grid calls, which a response thread must not.
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).handleAsync((done, failure) -> {
            if (failure != null) {
                throw failure instanceof CompletionException completion ? completion
                        : new CompletionException(failure);
            }
            Map<K, R> results = new HashMap<>();
            for (CompletableFuture<MapEntries> call : calls) {
                call.join().putAllToMap(serialization, results);
            }
            return results;
        }, Continuations.executor());
    }

    /**
     * Hazelcast's operation for an entry processor on several keys of one partition, with the map's backups sync
     * instead of async, so that its invocation is answered once they are applied. Registered in {@link Serialization}:
     * it travels to the partition's owner.
     */
    static final class Entries extends MultipleEntryOperation {

        Entries() {
        }

        Entries(String mapName, Set<Data> keys, EntryProcessor<?, ?, ?> processor) {
            super(mapName, keys, processor);
        }

        @Override
        public int getSyncBackupCount() {
            return mapContainer.getBackupCount();
        }

        @Override
        public int getAsyncBackupCount() {
            return mapContainer.getAsyncBackupCount();
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.BACKED_UP_ENTRIES;
        }
    }

    /** {@link #submitToKeys}, waited for; a failure is thrown as the grid threw it, as {@code executeOnKeys} does. */
    public static <K, V, R> Map<K, R> executeOnKeys(HazelcastInstance hazelcast, String mapName, Collection<K> keys,
                                                    EntryProcessor<K, V, R> processor) {
        try {
            return submitToKeys(hazelcast, mapName, keys, processor).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
