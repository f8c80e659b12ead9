package io.partita.store;

import java.util.List;

/**
 * A run of one partition's entries in key order ({@link JournalStore#share}).
 *
 * @param entries at most the run's length
 * @param next    the key the next run starts at, or null when this run reached the partition's end
 */
public record SharePage(List<StoredEntry> entries, byte[] next) {

    public SharePage {
        entries = List.copyOf(entries);
    }

    public boolean last() {
        return next == null;
    }
}
