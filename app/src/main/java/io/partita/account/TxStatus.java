package io.partita.account;

/** The definite outcome of a transaction; both are recorded and both are replayed to a retry. */
public enum TxStatus {
    APPLIED,
    REJECTED
}
