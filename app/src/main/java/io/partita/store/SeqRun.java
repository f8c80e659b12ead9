package io.partita.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * An account's entries under every seq from {@code oldest} to {@code newest}: what one disk offers another, which
 * answers whether it holds them all ({@link JournalStore#lacking}) before any of them is sent.
 */
public record SeqRun(String accountId, long newest, long oldest) {

    public SeqRun {
        Objects.requireNonNull(accountId, "accountId");
        if (oldest < 0 || newest < oldest) {
            throw new IllegalArgumentException("a run goes from its oldest seq up to its newest: " + oldest + ".."
                    + newest);
        }
    }

    /** The number of seqs the run covers. */
    public long length() {
        return newest - oldest + 1;
    }

    /**
     * {@code entries} as runs: sorted by account, newest seq first, and cut wherever the account changes or a seq is
     * skipped, so that each run covers the next {@link #length} of the sorted entries. Sorts {@code entries} in place;
     * one entry per account and seq.
     */
    public static List<SeqRun> of(List<StoredEntry> entries) {
        entries.sort(Comparator.comparing(StoredEntry::accountId)
                .thenComparing(Comparator.comparingLong(StoredEntry::seq).reversed()));
        List<SeqRun> runs = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= entries.size(); i++) {
            if (i == entries.size() || !entries.get(i).accountId().equals(entries.get(start).accountId())
                    || entries.get(i).seq() != entries.get(i - 1).seq() - 1) {
                if (i > start) {
                    runs.add(new SeqRun(entries.get(start).accountId(), entries.get(start).seq(),
                            entries.get(i - 1).seq()));
                }
                start = i;
            }
        }
        return runs;
    }

    /** Where each of {@code runs} starts in the entries {@link #of} sorted, and after the last, where they end. */
    public static int[] starts(List<SeqRun> runs) {
        int[] starts = new int[runs.size() + 1];
        for (int i = 0; i < runs.size(); i++) {
            starts[i + 1] = starts[i] + Math.toIntExact(runs.get(i).length());
        }
        return starts;
    }
}
