package io.partita.job;

/** What a job does to each account. Stored by name. */
public enum JobType {
    /** Charges {@code amount} to every account; an account that cannot pay within its overdraft limit is REJECTED. */
    FEE,
    /** Pays {@code balance * rateBasisPoints / 10000}, rounded half-even to whole minor units, on positive balances. */
    INTEREST,
    /** Checks every account's balance against its opening balance and journal, and reports the ones that differ. */
    AUDIT
}
