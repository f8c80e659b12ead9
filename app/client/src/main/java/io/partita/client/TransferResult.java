package io.partita.client;

/**
 * The node's decision on one transfer: completed, or rejected (the source lacks the funds). A retry of the same txId
 * with the same accounts and amount is answered the same way.
 *
 * @param fromBalance the source's balance after the transfer, when the node says it
 * @param toBalance   the destination's balance after the transfer, when the node says it
 */
public record TransferResult(String txId, String from, String to, long amount, boolean completed, Long fromBalance,
                             Long toBalance, boolean replayed, String reason) {
}
