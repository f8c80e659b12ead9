package io.partita.bench.peers;

/**
 * One debit or credit: {@code amount} is signed (a debit is negative), never zero.
 *
 * @param id      the transaction id; a repeat carries the id, account and amount of an earlier transaction
 * @param account the account's index, 0 .. accounts - 1 (each system names it its own way)
 */
record Tx(String id, int account, long amount) {
}
