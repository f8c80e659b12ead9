package io.partita.account;

/** What a journal entry did to a balance. Stored by name, so new kinds may be added (transfers, jobs). */
public enum TxType {
    DEBIT(-1),
    CREDIT(1);

    private final int sign;

    TxType(int sign) {
        this.sign = sign;
    }

    /** The change this type of transaction makes to a balance. */
    public long delta(long amount) {
        return sign * amount;
    }
}
