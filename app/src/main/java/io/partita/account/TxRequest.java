package io.partita.account;

import io.micronaut.core.annotation.Nullable;

/**
 * A request to change one account's balance, as the processing paths receive it.
 *
 * @param at  epoch milliseconds, stamped by the receiving node so that re-running the request is deterministic
 * @param ref what the request belongs to beyond the account (a transfer's other account, a job), or null
 */
public record TxRequest(String txId, TxType type, long amount, long at, @Nullable String ref) {

    public static TxRequest of(String txId, TxType type, long amount, long at) {
        return new TxRequest(txId, type, amount, at, null);
    }
}
