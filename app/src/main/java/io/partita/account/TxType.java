package io.partita.account;

/**
 * What a journal entry did to a balance. The journal stores it by name; an account's recent list by position (see
 * {@code AccountFeature}), so a new kind is only ever added at the end.
 */
public enum TxType {
    DEBIT(-1, true),
    CREDIT(1, true),
    /** A FEE job's charge (txId {@code job/<jobId>/<run>}); it respects the overdraft limit like a debit. */
    FEE(-1, true),
    /** An INTEREST job's payment (txId {@code job/<jobId>/<run>}). */
    INTEREST(1, true),
    /** A transfer's debit of its source account. */
    TRANSFER_OUT(-1, true),
    /** A transfer's credit of its destination account. */
    TRANSFER_IN(1, true),
    /**
     * Gives a transfer's amount back to its source when the destination refused the credit. Never refused itself:
     * it returns money the account held a moment ago, and a transfer must not be left half done.
     */
    TRANSFER_REFUND(1, false);

    private final int sign;
    private final boolean refusable;

    TxType(int sign, boolean refusable) {
        this.sign = sign;
        this.refusable = refusable;
    }

    /** Whether the ledger may reject this type of transaction for funds or the balance limit. */
    public boolean refusable() {
        return refusable;
    }

    /** The change this type of transaction makes to a balance. */
    public long delta(long amount) {
        return sign * amount;
    }
}
