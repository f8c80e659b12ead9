package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.partita.store.StoredRecord;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A feature's records that a member's disk keeps beside the ledger ({@link MemberDisk}): the entries of one map, in a
 * form of the feature's own, written through by the map's entry processors (owner and backups alike), copied with a
 * partition that arrives, and put back by the feature after a restart of the whole cluster. The ledger's disk thread
 * does the copying and calls {@link #recover}; a feature registers its kind with the member's config
 * ({@link #register}).
 *
 * @param <K> the map's key
 * @param <V> the map's value
 */
public abstract class DiskRecords<K, V> {

    private static final String USER_CONTEXT_KEY = "partita.disk-records";

    private final byte prefix;
    private final String mapName;

    /** {@code prefix}: one letter of its own that starts every key of this kind on disk (the ledger has 'a'). */
    protected DiskRecords(char prefix, String mapName) {
        this.prefix = (byte) prefix;
        this.mapName = mapName;
    }

    /** Adds {@code kind} to what members of {@code config} keep on disk. */
    @SuppressWarnings("unchecked")
    public static void register(Config config, DiskRecords<?, ?> kind) {
        ((List<DiskRecords<?, ?>>) config.getUserContext().computeIfAbsent(USER_CONTEXT_KEY,
                key -> new ArrayList<DiskRecords<?, ?>>())).add(kind);
    }

    /** The kinds registered with {@code member}'s config. */
    @SuppressWarnings("unchecked")
    public static List<DiskRecords<?, ?>> of(HazelcastInstance member) {
        Object kinds = member.getUserContext().get(USER_CONTEXT_KEY);
        return kinds == null ? List.of() : List.copyOf((List<DiskRecords<?, ?>>) kinds);
    }

    public final String mapName() {
        return mapName;
    }

    /** Whether a record's key on disk is of this kind. */
    public final boolean owns(byte[] key) {
        return key.length > 1 && key[0] == prefix;
    }

    protected abstract void writeKey(DataOutputStream out, K key) throws IOException;

    protected abstract K readKey(DataInputStream in) throws IOException;

    /** Writes {@code value}, or answers false when it need not be kept on disk (it is deleted there). */
    protected abstract boolean writeValue(DataOutputStream out, V value) throws IOException;

    protected abstract V readValue(DataInputStream in) throws IOException;

    /**
     * Puts back the records of one partition read from a disk, into a cluster that may hold some of them already
     * (another disk's copy, or newer writes): keep whichever is further along. On the disk thread, off partition
     * threads.
     */
    protected abstract void recover(HazelcastInstance member, Map<K, V> records);

    /**
     * Writes {@code value} under {@code key} (or deletes it, when the kind does not keep it) to {@code member}'s disk,
     * before the call answers ({@link DiskAcks}); from the entry processor that stored it, on the partition thread.
     * A value is not written while this disk's own copy of the partition is still to be joined ({@link
     * MemberDisk#unjoined}): the cluster's value may then be an older copy's (another disk's, read first), which would
     * replace a newer one this disk still has to bring back; the first round after the recovery writes every copy. A
     * deletion is (the cluster is done with the record: nothing on this disk is further along).
     */
    public final void stored(HazelcastInstance member, K key, V value) {
        MemberDisk disk = MemberDisk.of(member);
        if (disk.onDisk()) {
            int partition = member.getPartitionService().getPartition(key).getPartitionId();
            StoredRecord record = record(key, value);
            if (record.value() != null && disk.unjoined(partition)) {
                return;
            }
            disk.use(store -> DiskAcks.write(store, store.prepare(partition, List.of(), List.of(record), false)));
        }
    }

    /** The record on disk of {@code key} holding {@code value}; a null value when the kind does not keep it. */
    @SuppressWarnings("unchecked")
    public final StoredRecord record(Object key, Object value) {
        ByteArrayOutputStream keyBytes = new ByteArrayOutputStream(64);
        ByteArrayOutputStream valueBytes = new ByteArrayOutputStream(128);
        try (DataOutputStream keyOut = new DataOutputStream(keyBytes);
             DataOutputStream valueOut = new DataOutputStream(valueBytes)) {
            keyOut.writeByte(prefix);
            writeKey(keyOut, (K) key);
            boolean kept = value != null && writeValue(valueOut, (V) value);
            keyOut.flush();
            valueOut.flush();
            return new StoredRecord(keyBytes.toByteArray(), kept ? valueBytes.toByteArray() : null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes a partition's records of this kind and puts them back ({@link #recover}). */
    public final void recoverRecords(HazelcastInstance member, List<StoredRecord> records) {
        Map<K, V> decoded = new java.util.LinkedHashMap<>();
        try {
            for (StoredRecord record : records) {
                DataInputStream key = new DataInputStream(new ByteArrayInputStream(record.key(), 1,
                        record.key().length - 1));
                decoded.put(readKey(key), readValue(new DataInputStream(new ByteArrayInputStream(record.value()))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!decoded.isEmpty()) {
            recover(member, decoded);
        }
    }

    /** A kind whose map is keyed by a name or an id (a string), written as it is. */
    public abstract static class Named<V> extends DiskRecords<String, V> {

        protected Named(char prefix, String mapName) {
            super(prefix, mapName);
        }

        @Override
        public final void writeKey(DataOutputStream out, String key) throws IOException {
            out.writeUTF(key);
        }

        @Override
        public final String readKey(DataInputStream in) throws IOException {
            return in.readUTF();
        }
    }
}
