package io.partita.client;

/**
 * The node's decision on one transaction: applied, or rejected (it would pass the overdraft limit, or the balance
 * limit); both are recorded, so a retry of the same txId is answered the same way.
 *
 * @param balance  the account's balance after the transaction (after a rejection: unchanged)
 * @param replayed the node answered from its record of the txId (the header {@code Idempotent-Replayed}): this call
 *                 or an earlier attempt of it had already been decided; nothing changed this time
 * @param reason   for a rejection {@code INSUFFICIENT_FUNDS} or {@code BALANCE_LIMIT}; null when applied
 */
public record TxResult(String txId, String accountId, boolean applied, long balance, boolean replayed,
                       String reason) {

    public boolean rejected() {
        return !applied;
    }
}
