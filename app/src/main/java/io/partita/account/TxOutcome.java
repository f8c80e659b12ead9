package io.partita.account;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.node.ClassId;

import java.io.IOException;

/**
 * What a transaction came to, as the entry processor returns it to the node that asked; its entry is the recorded
 * one, null for {@link Kind#NOT_FOUND} and {@link Kind#PARTITION_LOST}.
 */
@ClassId(3)
public final class TxOutcome extends EntryOutcome<TxOutcome.Kind> {

    public enum Kind {
        /** Recorded now: the entry's status says whether it was applied or rejected. */
        RECORDED,
        /** The txId was recorded before with the same payload: the entry is the first answer. */
        REPLAYED,
        /** The txId was recorded before with another payload: the entry is what it recorded. */
        CONFLICT,
        /** There is no such account. */
        NOT_FOUND,
        /**
         * The account's partition lost every copy of its data (its owner and backups left at once, or the other side of
         * a network split holds it): whether the account exists is unknown until the data is back.
         */
        PARTITION_LOST
    }

    private static final Kind[] KINDS = Kind.values();

    public TxOutcome() {
    }

    private TxOutcome(Kind kind, JournalEntry entry) {
        super(kind, entry);
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

    public static TxOutcome partitionLost() {
        return new TxOutcome(Kind.PARTITION_LOST, null);
    }

    @Override
    protected Kind[] kinds() {
        return KINDS;
    }

    /** Writes an entry, or null, field by field (type and status in one byte); {@link #readEntry} reads it back. */
    public static void writeEntry(ObjectDataOutput out, JournalEntry entry) throws IOException {
        if (entry == null) {
            out.writeByte(-1);
            return;
        }
        // Never -1 (the null above): no type has the ordinal 63.
        out.writeByte(Tail.kind(entry));
        out.writeString(entry.accountId());
        out.writeString(entry.txId());
        out.writeLong(entry.amount());
        out.writeLong(entry.balanceAfter());
        out.writeLong(entry.at());
        out.writeLong(entry.seq());
        out.writeString(entry.ref());
    }

    public static JournalEntry readEntry(ObjectDataInput in) throws IOException {
        byte kind = in.readByte();
        if (kind == -1) {
            return null;
        }
        return new JournalEntry(in.readString(), in.readString(), Tail.type(kind), in.readLong(), Tail.status(kind),
                in.readLong(), in.readLong(), in.readLong(), in.readString(), Tail.merged(kind));
    }
}
