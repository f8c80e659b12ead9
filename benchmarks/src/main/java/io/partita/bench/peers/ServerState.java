package io.partita.bench.peers;

/**
 * What a system holds after a run, as its own queries read it.
 *
 * @param accounts           accounts present
 * @param balanceSum         the sum of their balances
 * @param openingSum         the sum of their opening balances
 * @param journalRows        journal rows (one per transaction id, with its outcome)
 * @param journalRejected    journal rows of rejected transactions
 * @param journalApplied     the signed sum of the applied amounts in the journal
 * @param mismatchedAccounts accounts whose balance is not their opening balance plus their applied journal amounts
 */
record ServerState(long accounts, long balanceSum, long openingSum, long journalRows, long journalRejected,
                   long journalApplied, long mismatchedAccounts) {
}
