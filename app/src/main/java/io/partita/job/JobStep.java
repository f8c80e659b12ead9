package io.partita.job;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxStatus;
import io.partita.node.Identified;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/** What {@link ApplyJob} did to one account, as it travels back to the partition task. */
final class JobStep implements Identified {

    enum Kind {
        /** Recorded now: the entry says whether the money moved (APPLIED) or could not (REJECTED). */
        RECORDED,
        /** The job had already processed the account: the entry is what it recorded then. */
        REPLAYED,
        /** Processed, no money moved (INTEREST on a balance that earns nothing), now or before. */
        SKIPPED,
        /** The account is gone. */
        MISSING
    }

    private Kind kind;
    private JournalEntry entry;

    JobStep() {
    }

    private JobStep(Kind kind, JournalEntry entry) {
        this.kind = kind;
        this.entry = entry;
    }

    static JobStep recorded(JournalEntry entry) {
        return new JobStep(Kind.RECORDED, entry);
    }

    static JobStep replayed(JournalEntry entry) {
        return new JobStep(Kind.REPLAYED, entry);
    }

    static JobStep skipped() {
        return new JobStep(Kind.SKIPPED, null);
    }

    static JobStep missing() {
        return new JobStep(Kind.MISSING, null);
    }

    Kind kind() {
        return kind;
    }

    /** The journal entry of the job's movement; null when there is none. */
    JournalEntry entry() {
        return entry;
    }

    /** This step counted: an account processed, and how. A replay counts as what it first did. */
    JobTally tally() {
        return switch (kind) {
            case MISSING -> JobTally.EMPTY;
            case SKIPPED -> new JobTally(1, 0, 0, 1, 0, 0, List.of());
            case RECORDED, REPLAYED -> entry.status() == TxStatus.APPLIED
                    ? new JobTally(1, 1, 0, 0, entry.amount(), 0, List.of())
                    : new JobTally(1, 0, 1, 0, 0, 0, List.of());
        };
    }

    @Override
    public int getClassId() {
        return JobFeature.JOB_STEP;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeByte(kind.ordinal());
        TxOutcome.writeEntry(out, entry);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        kind = Kind.values()[in.readByte()];
        entry = TxOutcome.readEntry(in);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobStep other && kind == other.kind && Objects.equals(entry, other.entry);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, entry);
    }

    @Override
    public String toString() {
        return "JobStep[" + kind + ", " + entry + "]";
    }
}
