package io.partita.client;

/**
 * The node's decision on one transaction: applied, or rejected (it would pass the overdraft limit, or the balance
 * limit); both are recorded, so a retry of the same txId is answered the same way.
 *
 * @param balance  the account's balance after the transaction (after a rejection: unchanged)
 * @param replayed the node answered from its record of the txId (the header {@code Idempotent-Replayed}): this call
 *                 or an earlier attempt of it had already been decided; nothing changed this time
 * @param reason   for a rejection {@code INSUFFICIENT_FUNDS} or {@code BALANCE_LIMIT}; null when applied
 * @param attempts how many sends it took (1: no retry). After a retry, {@code replayed} may only mean that an earlier
 *                 attempt of this very call landed before its answer was lost
 */
public record TxResult(String txId, String accountId, boolean applied, long balance, boolean replayed,
                       String reason, int attempts) {

    public boolean rejected() {
        return !applied;
    }
}
