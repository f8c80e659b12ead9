package io.partita.client;

/**
 * One line of an account's journal: an applied or rejected transaction, newest first in a read.
 *
 * @param type   DEBIT or CREDIT for a transaction; the journal also shows what transfers and jobs did (e.g.
 *               TRANSFER_OUT, TRANSFER_IN), so this is the node's name for it
 * @param status APPLIED or REJECTED
 * @param at     when the owner decided it (ISO-8601)
 * @param ref    what it belongs to (a transfer, a job), or null
 * @param merged whether a split-brain merge brought it in from the other side (it was decided there)
 */
public record JournalLine(String txId, String type, long amount, String status, long balanceAfter, String at, long seq,
                          String ref, boolean merged) {
}
