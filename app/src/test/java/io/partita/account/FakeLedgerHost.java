package io.partita.account;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A member as the ledger's entry processors see it, in memory: a journal, a set of lost partitions, and the entries
 * handed to the journal writer. Lets a processor run as a plain function on a {@code SimpleEntry}; {@link #flush}
 * plays the journal writer's part (journal the queued entries, then trim them from the tails).
 */
public final class FakeLedgerHost implements LedgerHost {

    public final Map<JournalKey, JournalRecord> journal = new HashMap<>();
    public final List<JournalEntry> queued = new ArrayList<>();
    public boolean lost;
    /** The seqs this member's disk holds, by account; null: it cannot tell, as without a disk. */
    public Map<String, java.util.Set<Long>> onDisk;
    /** Entries recorded at or after it stay in their tails even once journaled; by default none does. */
    public long holdCutoff = Long.MAX_VALUE;

    @Override
    public int partitionOf(Map.Entry<String, Account> entry) {
        return 0;
    }

    @Override
    public JournalEntry journaled(int partition, String accountId, String txId) {
        JournalKey key = new JournalKey(accountId, txId);
        JournalRecord record = journal.get(key);
        return record == null ? null : record.entry(key);
    }

    @Override
    public boolean holdsSeq(int partition, String accountId, long seq) {
        return onDisk == null || onDisk.getOrDefault(accountId, java.util.Set.of()).contains(seq);
    }

    /** The accounts a restart's join reported as conflicts, in order. */
    public final List<String> conflicts = new ArrayList<>();

    @Override
    public void conflictAtRestart(String accountId, Account joined) {
        conflicts.add(accountId);
    }

    @Override
    public boolean lost(int partition) {
        return lost;
    }

    @Override
    public void recorded(int partition, List<JournalEntry> entries) {
        queued.addAll(entries);
    }

    @Override
    public long holdCutoff() {
        return holdCutoff;
    }

    /** What the journal writer's write does on its own: journals the queued entries (the next write trims them). */
    public void journalQueued() {
        for (JournalEntry entry : queued) {
            journal.put(entry.key(), JournalRecord.of(entry));
        }
        queued.clear();
    }

    /** {@link #flush(Map)} for one account held in an entry. */
    public void flush(Map.Entry<String, Account> entry) {
        Map<String, Account> one = new HashMap<>();
        one.put(entry.getKey(), entry.getValue());
        flush(one);
        entry.setValue(one.get(entry.getKey()));
    }

    /** What the journal writer does: journals the queued entries, then trims them from {@code accounts}' tails. */
    public void flush(Map<String, Account> accounts) {
        Map<String, Long> through = new HashMap<>();
        for (JournalEntry entry : queued) {
            journal.put(entry.key(), JournalRecord.of(entry));
            through.merge(entry.accountId(), entry.seq(), Math::max);
        }
        queued.clear();
        through.forEach((id, seq) -> accounts.computeIfPresent(id, (key, account) -> account.trimmedThrough(seq)));
    }
}
