package io.partita.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Journal entries made up for the store's tests: about 80 bytes of payload each, like a journal record. */
final class Entries {

    private Entries() {
    }

    static StoredEntry entry(String account, long seq, long at) {
        return new StoredEntry(account, seq, "tx-" + account + "-" + seq, at, payload(account, seq));
    }

    /** Entries {@code fromSeq} to {@code toSeq} of one account, recorded a millisecond apart from {@code firstAt}. */
    static List<StoredEntry> range(String account, long fromSeq, long toSeq, long firstAt) {
        List<StoredEntry> entries = new ArrayList<>();
        for (long seq = fromSeq; seq <= toSeq; seq++) {
            entries.add(entry(account, seq, firstAt + seq - fromSeq));
        }
        return entries;
    }

    static byte[] payload(String account, long seq) {
        String text = String.format("%-80s", "payload of " + account + " #" + seq);
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
