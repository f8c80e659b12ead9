package io.partita.client;

/** What a transaction does to its account. */
public enum TxType {
    DEBIT,
    CREDIT
}
