package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.micronaut.core.annotation.Nullable;

import java.io.IOException;

/**
 * A request to change one account's balance, as the processing paths receive it.
 *
 * @param at  epoch milliseconds, stamped by the receiving node so that re-running the request is deterministic
 * @param ref what the request belongs to beyond the account (a transfer's other account, a job), or null
 */
public record TxRequest(String txId, TxType type, long amount, long at, @Nullable String ref) {

    private static final TxType[] TYPES = TxType.values();

    public static TxRequest of(String txId, TxType type, long amount, long at) {
        return new TxRequest(txId, type, amount, at, null);
    }

    /** Writes the request into an IdentifiedDataSerializable that carries it; {@link #readFrom} reads it back. */
    void writeTo(ObjectDataOutput out) throws IOException {
        out.writeString(txId);
        out.writeByte(type.ordinal());
        out.writeLong(amount);
        out.writeLong(at);
        out.writeString(ref);
    }

    static TxRequest readFrom(ObjectDataInput in) throws IOException {
        return new TxRequest(in.readString(), TYPES[in.readByte()], in.readLong(), in.readLong(), in.readString());
    }
}
