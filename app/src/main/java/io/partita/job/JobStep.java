package io.partita.job;

import io.partita.account.EntryOutcome;
import io.partita.account.JournalEntry;
import io.partita.account.TxStatus;
import io.partita.node.ClassId;

import java.util.List;

/**
 * What {@link ApplyJob} did to one account, as it travels back to the partition task; its entry is the journal entry
 * of the job's movement, null when there is none.
 */
@ClassId(62)
final class JobStep extends EntryOutcome<JobStep.Kind> {

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

    private static final Kind[] KINDS = Kind.values();

    JobStep() {
    }

    private JobStep(Kind kind, JournalEntry entry) {
        super(kind, entry);
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

    @Override
    protected Kind[] kinds() {
        return KINDS;
    }

    /** This step counted: an account processed, and how. A replay counts as what it first did. */
    JobTally tally() {
        JournalEntry entry = entry();
        return switch (kind()) {
            case MISSING -> JobTally.EMPTY;
            case SKIPPED -> new JobTally(1, 0, 0, 1, 0, 0, List.of());
            case RECORDED, REPLAYED -> entry.status() == TxStatus.APPLIED
                    ? new JobTally(1, 1, 0, 0, entry.amount(), 0, List.of())
                    : new JobTally(1, 0, 1, 0, 0, 0, List.of());
        };
    }
}
