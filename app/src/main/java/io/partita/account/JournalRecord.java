package io.partita.account;

import io.micronaut.core.annotation.Nullable;

/**
 * The value of the {@code journal} map: one recorded transaction, without what its key already says (the account and
 * the txId). Kept as an object in the map (OBJECT in-memory format), about 56 bytes; serialized with Compact under
 * {@link AccountFeature#JOURNAL_RECORD_TYPE}, which SQL reads.
 *
 * @param kind {@link Tail#kind}: type, status and the merged flag in one byte
 * @param seq  the account's version once this entry was recorded; orders the journal newest first
 * @param at   epoch milliseconds, stamped by the node that received the request (never inside an entry processor)
 * @param ref  what the entry belongs to beyond the account (a transfer's other account, a job), or null
 */
public record JournalRecord(byte kind, long amount, long balanceAfter, long at, long seq, @Nullable String ref) {

    public static JournalRecord of(JournalEntry entry) {
        return new JournalRecord(Tail.kind(entry), entry.amount(), entry.balanceAfter(), entry.at(), entry.seq(),
                entry.ref());
    }

    public JournalEntry entry(JournalKey key) {
        return new JournalEntry(key.accountId(), key.txId(), Tail.type(kind), amount, Tail.status(kind), balanceAfter,
                at, seq, ref, Tail.merged(kind));
    }
}
