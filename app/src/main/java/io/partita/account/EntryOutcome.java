package io.partita.account;

import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.Objects;

/**
 * What an entry processor did to one account, as it travels back to the node that asked: a kind, and the journal
 * entry it recorded or found, if any. One carrier for every such answer ({@link TxOutcome} for transactions, a job's
 * step for jobs); each names its own kinds and class id. Written flat: the kind's ordinal in one byte, then the entry
 * field by field ({@link TxOutcome#writeEntry}), no nested object, no schema.
 *
 * @param <K> the kinds of outcome
 */
public abstract class EntryOutcome<K extends Enum<K>> implements FieldList {

    private K kind;
    private JournalEntry entry;

    /** For deserialization: the kind and entry are read from the wire. */
    protected EntryOutcome() {
    }

    protected EntryOutcome(K kind, JournalEntry entry) {
        this.kind = kind;
        this.entry = entry;
    }

    /** Every kind, by ordinal: how a kind is read back. */
    protected abstract K[] kinds();

    public K kind() {
        return kind;
    }

    /** The journal entry recorded or found; null when the kind has none. */
    public JournalEntry entry() {
        return entry;
    }

    @Override
    public final void fields(Fields fields) throws IOException {
        kind = fields.ordinal(kind, kinds());
        entry = fields.value(entry, TxOutcome::writeEntry, TxOutcome::readEntry);
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && kind == ((EntryOutcome<?>) o).kind
                && Objects.equals(entry, ((EntryOutcome<?>) o).entry);
    }

    @Override
    public final int hashCode() {
        return Objects.hash(kind, entry);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + kind + ", " + entry + "]";
    }
}
