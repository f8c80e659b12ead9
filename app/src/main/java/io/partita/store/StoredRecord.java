package io.partita.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * A value kept beside a partition's journal, under a key of the caller's within that partition: the current state of
 * something the partition holds (an account), written through as it changes and read back at a restart.
 *
 * @param key   at least one byte; the store puts the partition in front of it
 * @param value the bytes to keep, or null to delete the record
 */
public record StoredRecord(byte[] key, byte[] value) {

    public StoredRecord {
        Objects.requireNonNull(key, "key");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredRecord that && Arrays.equals(key, that.key) && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "StoredRecord[" + key.length + " B key, " + (value == null ? "deleted" : value.length + " B") + "]";
    }
}
