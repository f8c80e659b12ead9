package io.partita.account;

import io.partita.node.ClassId;

import java.util.Map;

/**
 * Journal entries recorded before a cutoff: those past the retention, which the {@link JournalWriter} deletes with
 * {@code removeAll}. This replaces a time to live per entry, whose expiry record cost about 70 bytes per entry.
 */
@ClassId(8)
public final class ExpiredBefore extends CutoffPredicate<JournalKey, JournalRecord> {

    public ExpiredBefore() {
    }

    ExpiredBefore(long cutoff) {
        super(cutoff);
    }

    @Override
    public boolean apply(Map.Entry<JournalKey, JournalRecord> entry) {
        return entry.getValue().at() < cutoff();
    }
}
