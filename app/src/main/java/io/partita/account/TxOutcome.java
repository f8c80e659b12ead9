package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.cluster.Serialization;

import java.io.IOException;
import java.util.Objects;

/** What a transaction came to, as the entry processor returns it to the node that asked. */
public final class TxOutcome implements IdentifiedDataSerializable {

    public enum Kind {
        /** Recorded now: the entry's status says whether it was applied or rejected. */
        RECORDED,
        /** The txId was recorded before with the same payload: the entry is the first answer. */
        REPLAYED,
        /** The txId was recorded before with another payload: the entry is what it recorded. */
        CONFLICT,
        /** There is no such account. */
        NOT_FOUND
    }

    private Kind kind;
    private JournalEntry entry;

    public TxOutcome() {
    }

    private TxOutcome(Kind kind, JournalEntry entry) {
        this.kind = kind;
        this.entry = entry;
    }

    public static TxOutcome recorded(JournalEntry entry) {
        return new TxOutcome(Kind.RECORDED, entry);
    }

    public static TxOutcome replayed(JournalEntry entry) {
        return new TxOutcome(Kind.REPLAYED, entry);
    }

    public static TxOutcome conflict(JournalEntry entry) {
        return new TxOutcome(Kind.CONFLICT, entry);
    }

    public static TxOutcome notFound() {
        return new TxOutcome(Kind.NOT_FOUND, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The recorded entry; null only for {@link Kind#NOT_FOUND}. */
    public JournalEntry entry() {
        return entry;
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.TRANSACTION_OUTCOME;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeByte(kind.ordinal());
        out.writeObject(entry);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        kind = Kind.values()[in.readByte()];
        entry = in.readObject();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TxOutcome other && kind == other.kind && Objects.equals(entry, other.entry);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, entry);
    }

    @Override
    public String toString() {
        return "TxOutcome[" + kind + ", " + entry + "]";
    }
}
