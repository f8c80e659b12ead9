package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.IPartitionService;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.impl.MapEntries;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.impl.operation.MultipleEntryBackupOperation;
import com.hazelcast.map.impl.operation.MultipleEntryOperation;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.operationservice.CallStatus;
import com.hazelcast.spi.impl.operationservice.Offload;
import com.hazelcast.spi.impl.operationservice.Operation;
import com.hazelcast.spi.impl.operationservice.OperationResponseHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

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
        return onContinuations(CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)), done -> {
            Map<K, R> results = new HashMap<>();
            for (CompletableFuture<MapEntries> call : calls) {
                call.join().putAllToMap(serialization, results);
            }
            return results;
        });
    }

    /** {@link #submitToKeys} for one key: the processor's result for it (null when it returned none). */
    public static <K, V, R> CompletableFuture<R> submitToKey(HazelcastInstance hazelcast, String mapName, K key,
                                                             EntryProcessor<K, V, R> processor) {
        NodeEngineImpl engine = Internals.nodeEngine(hazelcast);
        SerializationService serialization = engine.getSerializationService();
        Data data = serialization.toData(key);
        int partition = engine.getPartitionService().getPartitionId(data);
        CompletableFuture<MapEntries> call = engine.getOperationService().invokeOnPartition(MapService.SERVICE_NAME,
                new Entries(mapName, Set.of(data), processor), partition);
        return onContinuations(call, entries -> entries.isEmpty() ? null : serialization.toObject(entries.getValue(0)));
    }

    /**
     * {@code then} of the call's answer, or its failure, completed on the continuation pool, never on a response
     * thread (nor the disk's committer thread, which sends some answers): whoever continues from the answer may make
     * further grid calls, which those threads must not.
     */
    private static <T, R> CompletableFuture<R> onContinuations(CompletableFuture<T> call, Function<T, R> then) {
        return call.handleAsync((answer, failure) -> {
            if (failure != null) {
                throw failure instanceof CompletionException completion ? completion
                        : new CompletionException(failure);
            }
            return then.apply(answer);
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

        /** Runs the processor in a {@link DiskAcks} scope; the answer waits for the disk writes it made. */
        @Override
        public CallStatus call() throws Exception {
            DiskAcks.Ran<CallStatus> ran = DiskAcks.around(super::call);
            if (ran.written() != null) {
                // Hazelcast's handlers are raw types; each takes the operation it was given.
                @SuppressWarnings("unchecked")
                OperationResponseHandler<Operation> handler = getOperationResponseHandler();
                setOperationResponseHandler(new AfterWrites(handler, ran.written()));
            }
            return ran.answer();
        }

        @Override
        public Operation getBackupOperation() {
            EntryProcessor<?, ?, ?> backup = entryProcessor.getBackupProcessor();
            return backup == null ? null : new EntriesBackup(name, keys, backup);
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

    /**
     * The backup of {@link Entries}: the backup processor on each key, acknowledged once the disk writes it made are
     * durable. Hazelcast's {@code Backup} sends the acknowledgement after the operation's run, unless the operation
     * offloads itself (a map operation is "step aware" for this): then it hands the operation the acknowledgement to
     * send, which the committer thread sends here.
     */
    static final class EntriesBackup extends MultipleEntryBackupOperation {

        private static final Logger LOG = LoggerFactory.getLogger(EntriesBackup.class);

        EntriesBackup() {
        }

        EntriesBackup(String mapName, Set<Data> keys, EntryProcessor<?, ?, ?> backupProcessor) {
            super(mapName, keys, backupProcessor);
        }

        @Override
        public CallStatus call() throws Exception {
            DiskAcks.Ran<CallStatus> ran = DiskAcks.around(super::call);
            CompletableFuture<Void> written = ran.written();
            if (written == null || written.isDone() && !written.isCompletedExceptionally()) {
                return ran.answer();
            }
            return new Offload(this) {
                @Override
                @SuppressWarnings("unchecked") // Hazelcast hands the acknowledgement over as a raw Consumer<Operation>
                public void start() {
                    written.whenComplete((done, failure) -> {
                        if (failure == null) {
                            backupOpAfterRun.accept(EntriesBackup.this);
                        } else {
                            // No acknowledgement: the call fails as indeterminate; its retry finds what was applied.
                            LOG.warn("A backup's disk write failed; the call it belongs to is not acknowledged: {}",
                                    failure.toString());
                        }
                        // Ends the offload (Hazelcast counts the operation as running until it answers).
                        sendResponse(null);
                    });
                }
            };
        }

        @Override
        public int getFactoryId() {
            return Serialization.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return Serialization.BACKED_UP_ENTRIES_BACKUP;
        }
    }

    /** Sends the operation's answer once its disk writes are durable: from the committer thread, or now if they are. */
    private record AfterWrites(OperationResponseHandler<Operation> delegate, CompletableFuture<Void> written)
            implements OperationResponseHandler<Operation> {

        @Override
        public void sendResponse(Operation op, Object response) {
            written.whenComplete((done, failure) -> delegate.sendResponse(op, failure == null ? response
                    : failure instanceof CompletionException completion ? completion.getCause() : failure));
        }
    }

    /** {@link #submitToKeys}, waited for; a failure is thrown as the grid threw it, as {@code executeOnKeys} does. */
    public static <K, V, R> Map<K, R> executeOnKeys(HazelcastInstance hazelcast, String mapName, Collection<K> keys,
                                                    EntryProcessor<K, V, R> processor) {
        return joined(submitToKeys(hazelcast, mapName, keys, processor));
    }

    /** {@link #submitToKey}, waited for; a failure is thrown as the grid threw it, as {@code executeOnKey} does. */
    public static <K, V, R> R executeOnKey(HazelcastInstance hazelcast, String mapName, K key,
                                           EntryProcessor<K, V, R> processor) {
        return joined(submitToKey(hazelcast, mapName, key, processor));
    }

    /** Waits for {@code call}; its failure is thrown as the grid threw it, not wrapped. */
    private static <T> T joined(CompletableFuture<T> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
