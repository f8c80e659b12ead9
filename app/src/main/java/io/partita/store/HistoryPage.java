package io.partita.store;

import java.util.List;

/**
 * A page of one account's history, newest first.
 *
 * @param entries    at most the page size, in descending seq
 * @param nextBefore the {@code beforeSeq} that reads the next page, or -1 when this page reached the oldest entry
 */
public record HistoryPage(List<StoredEntry> entries, long nextBefore) {

    public HistoryPage {
        entries = List.copyOf(entries);
    }

    public boolean last() {
        return nextBefore < 0;
    }
}
