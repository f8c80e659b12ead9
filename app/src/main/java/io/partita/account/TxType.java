package io.partita.account;

/** What a journal entry did to a balance. Stored by name, so new kinds may be added (transfers, jobs). */
public enum TxType {
    DEBIT(-1),
    CREDIT(1),
    /** A FEE job's charge (txId {@code job:<jobId>}); it respects the overdraft limit like a debit. */
    FEE(-1),
    /** An INTEREST job's payment (txId {@code job:<jobId>}). */
    INTEREST(1);

    private final int sign;

    TxType(int sign) {
        this.sign = sign;
    }

    /** The change this type of transaction makes to a balance. */
    public long delta(long amount) {
        return sign * amount;
    }
}
