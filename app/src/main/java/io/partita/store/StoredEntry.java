package io.partita.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * One journal entry as the store keeps it: the account's {@code seq} orders an account's history, {@code txId} is what
 * a retry is recognised by, {@code at} is what the retention goes by, and {@code payload} is the rest, which the store
 * does not read (the account package encodes it).
 *
 * @param seq the account's version once the entry was recorded, at least 0; one entry per account and seq
 * @param at  epoch milliseconds, at least 0
 */
public record StoredEntry(String accountId, long seq, String txId, long at, byte[] payload) {

    public StoredEntry {
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(txId, "txId");
        Objects.requireNonNull(payload, "payload");
        if (seq < 0 || at < 0) {
            throw new IllegalArgumentException("seq and at must not be negative");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredEntry that && seq == that.seq && at == that.at
                && accountId.equals(that.accountId) && txId.equals(that.txId) && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(accountId, seq, txId, at, Arrays.hashCode(payload));
    }

    @Override
    public String toString() {
        return "StoredEntry[" + accountId + " #" + seq + " " + txId + " at " + at + ", " + payload.length + " B]";
    }
}
