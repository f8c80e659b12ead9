package io.partita.account;

import io.micronaut.core.annotation.Nullable;
import io.partita.store.StoredEntry;

import java.util.Objects;

/**
 * One recorded transaction on one account: its request, its outcome and the balance it left, and the answer a retry of
 * {@link #txId} gets. This is how the code and the API see an entry; it is stored packed in an account's
 * {@link Tail} and, once journaled, as a {@link JournalKey} and a {@link JournalRecord}.
 *
 * @param seq the account's version once this entry was recorded; orders the journal newest first
 * @param at  epoch milliseconds, stamped by the node that received the request (never inside an entry processor)
 * @param ref    what the entry belongs to beyond the account, such as a transfer's other account; null for none
 * @param merged whether a split-brain merge brought this entry from the other side of a network split: its
 *               {@code balanceAfter} is what its client was told there, not this account's balance after it
 */
public record JournalEntry(String accountId,
                           String txId,
                           TxType type,
                           long amount,
                           TxStatus status,
                           long balanceAfter,
                           long at,
                           long seq,
                           @Nullable String ref,
                           boolean merged) {

    /** An entry this account's own entry processor recorded. */
    public JournalEntry(String accountId, String txId, TxType type, long amount, TxStatus status, long balanceAfter,
                        long at, long seq, @Nullable String ref) {
        this(accountId, txId, type, amount, status, balanceAfter, at, seq, ref, false);
    }

    public JournalEntry {
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(txId, "txId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
    }

    /** Whether {@code request} carries the same payload as the one this entry recorded. */
    boolean sameRequestAs(TxRequest request) {
        return type == request.type() && amount == request.amount() && Objects.equals(ref, request.ref());
    }

    public JournalKey key() {
        return new JournalKey(accountId, txId);
    }

    /** The entry as a member's disk keeps it: its payload is the entry's tail encoding ({@link Tail#encode}). */
    public static JournalEntry of(StoredEntry stored) {
        return Tail.entries(stored.accountId(), stored.payload(), stored.seq()).get(0);
    }
}
