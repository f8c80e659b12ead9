package io.partita.account;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The value of the {@code accounts} map.
 *
 * @param version the number of transactions recorded on the account (applied or rejected)
 * @param fence   the highest FencedLock fence that wrote the account; a write carrying a lower one is refused
 * @param recent  the latest {@link Ledger#RECENT} journal entries, oldest first: the answers to fast retries, held in
 *                the entry itself so that the duplicate check needs no second lookup in the common case
 */
public record Account(String id, long balance, long overdraftLimit, long version, long fence,
                      List<JournalEntry> recent) {

    public Account {
        Objects.requireNonNull(id, "id");
        recent = List.copyOf(recent);
    }

    public static Account open(String id, long balance, long overdraftLimit) {
        return new Account(id, balance, overdraftLimit, 0, 0, List.of());
    }

    JournalEntry recent(String txId) {
        for (int i = recent.size() - 1; i >= 0; i--) {
            JournalEntry entry = recent.get(i);
            if (entry.txId().equals(txId)) {
                return entry;
            }
        }
        return null;
    }

    /** This account after {@code entry} was recorded, keeping at most {@code keep} recent entries. */
    Account record(JournalEntry entry, int keep) {
        List<JournalEntry> next = new ArrayList<>(Math.min(recent.size() + 1, keep));
        int from = Math.max(0, recent.size() + 1 - keep);
        for (int i = from; i < recent.size(); i++) {
            next.add(recent.get(i));
        }
        next.add(entry);
        return new Account(id, entry.balanceAfter(), overdraftLimit, entry.seq(), fence, next);
    }

    /** This account as written by the holder of lock fence {@code newFence}. */
    public Account withFence(long newFence) {
        return new Account(id, balance, overdraftLimit, version, newFence, recent);
    }
}
