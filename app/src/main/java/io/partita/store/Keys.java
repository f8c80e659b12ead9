package io.partita.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The store's key layout. Every key starts with its partition (2 bytes, big-endian), so one partition's share of each
 * column family is one contiguous range: exported by one scan, dropped by one range delete. RocksDB compares keys as
 * unsigned bytes, and non-negative longs written big-endian sort as numbers.
 * <pre>
 * entries: partition(2) accountLength(1) account seqInverted(8)   -> txIdLength(1) txId at(8) payload
 * txids:   partition(2) accountLength(1) account txId             -> seq(8)
 * expiry:  partition(2) at(8) accountLength(1) account seq(8)     -> txId
 * default: "marker"                                               -> the DataMarker
 *          "held" partition(2)                                    -> (empty): this disk holds a copy of the partition
 * </pre>
 * {@code seqInverted} is {@code Long.MAX_VALUE - seq}: an account's newest entry comes first, and a page is a forward
 * scan (RocksDB's fast direction).
 */
final class Keys {

    static final int MAX_PARTITION = 0xFFFE;
    static final int MAX_ID_BYTES = 255;
    static final byte[] MARKER = "marker".getBytes(StandardCharsets.US_ASCII);
    /** The cluster's members as this member last saw them (their member names), in the default family. */
    static final byte[] MEMBERS = "members".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HELD = "held".getBytes(StandardCharsets.US_ASCII);

    private Keys() {
    }

    static byte[] id(String id) {
        byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_ID_BYTES) {
            throw new IllegalArgumentException("an id takes 1 to " + MAX_ID_BYTES + " bytes: " + id);
        }
        return bytes;
    }

    static void checkPartition(int partition) {
        if (partition < 0 || partition > MAX_PARTITION) {
            throw new IllegalArgumentException("no such partition: " + partition);
        }
    }

    static byte[] partition(int partition) {
        checkPartition(partition);
        return new byte[] {(byte) (partition >>> 8), (byte) partition};
    }

    /** The first key past every key of {@code partition}. */
    static byte[] partitionEnd(int partition) {
        return partition(partition + 1);
    }

    static byte[] account(int partition, byte[] account) {
        return ByteBuffer.allocate(3 + account.length).put(partition(partition)).put((byte) account.length)
                .put(account).array();
    }

    /** The first key past every key that starts with {@code prefix} (which never ends in 0xFF here). */
    static byte[] end(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        throw new IllegalArgumentException("no key follows this prefix");
    }

    static byte[] entry(int partition, byte[] account, long seq) {
        return ByteBuffer.allocate(11 + account.length).put(partition(partition)).put((byte) account.length)
                .put(account).putLong(Long.MAX_VALUE - seq).array();
    }

    /** {@code key}, an {@link #entry} key, turned into the key of the same account's entry {@code seq}, in place. */
    static void entrySeq(byte[] key, long seq) {
        ByteBuffer.wrap(key).putLong(key.length - 8, Long.MAX_VALUE - seq);
    }

    static byte[] entryValue(byte[] txId, long at, byte[] payload) {
        return ByteBuffer.allocate(9 + txId.length + payload.length).put((byte) txId.length).put(txId).putLong(at)
                .put(payload).array();
    }

    static byte[] txId(int partition, byte[] account, byte[] txId) {
        return ByteBuffer.allocate(3 + account.length + txId.length).put(partition(partition))
                .put((byte) account.length).put(account).put(txId).array();
    }

    static byte[] expiry(int partition, long at, byte[] account, long seq) {
        return ByteBuffer.allocate(19 + account.length).put(partition(partition)).putLong(at)
                .put((byte) account.length).put(account).putLong(seq).array();
    }

    static byte[] expiryBound(int partition, long at) {
        return ByteBuffer.allocate(10).put(partition(partition)).putLong(at).array();
    }

    /** A record's key in the records family: the partition, then the caller's key. */
    static byte[] record(int partition, byte[] key) {
        if (key.length == 0) {
            throw new IllegalArgumentException("a record needs a key");
        }
        return ByteBuffer.allocate(2 + key.length).put(partition(partition)).put(key).array();
    }

    static byte[] recordKey(byte[] key) {
        return Arrays.copyOfRange(key, 2, key.length);
    }

    static byte[] held(int partition) {
        return ByteBuffer.allocate(HELD.length + 2).put(HELD).put(partition(partition)).array();
    }

    static byte[] heldPrefix() {
        return HELD.clone();
    }

    static int partitionOf(byte[] key) {
        return ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    }

    static int heldPartition(byte[] key) {
        return ((key[HELD.length] & 0xFF) << 8) | (key[HELD.length + 1] & 0xFF);
    }

    static long longAt(byte[] bytes, int offset) {
        return ByteBuffer.wrap(bytes, offset, 8).getLong();
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    /** An entry from its key in the entries family and its value. */
    static StoredEntry decodeEntry(byte[] key, byte[] value) {
        int accountLength = key[2] & 0xFF;
        String account = new String(key, 3, accountLength, StandardCharsets.UTF_8);
        long seq = Long.MAX_VALUE - longAt(key, 3 + accountLength);
        int txLength = value[0] & 0xFF;
        String txId = new String(value, 1, txLength, StandardCharsets.UTF_8);
        long at = longAt(value, 1 + txLength);
        byte[] payload = Arrays.copyOfRange(value, 9 + txLength, value.length);
        return new StoredEntry(account, seq, txId, at, payload);
    }

    /** The txId an entry's value holds, as bytes. */
    static byte[] txIdOf(byte[] value) {
        return Arrays.copyOfRange(value, 1, 1 + (value[0] & 0xFF));
    }

    /** The account and seq an expiry key names, as the key of the entry. */
    static byte[] entryOfExpiry(byte[] expiryKey) {
        return entry(partitionOf(expiryKey), accountOfExpiry(expiryKey), seqOfExpiry(expiryKey));
    }

    /** The key in the txIds family of {@code txId}, of the account an expiry key names. */
    static byte[] txIdOfExpiry(byte[] expiryKey, byte[] txId) {
        return txId(partitionOf(expiryKey), accountOfExpiry(expiryKey), txId);
    }

    static long seqOfExpiry(byte[] expiryKey) {
        return longAt(expiryKey, 11 + (expiryKey[10] & 0xFF));
    }

    private static byte[] accountOfExpiry(byte[] expiryKey) {
        int accountLength = expiryKey[10] & 0xFF;
        return Arrays.copyOfRange(expiryKey, 11, 11 + accountLength);
    }
}
