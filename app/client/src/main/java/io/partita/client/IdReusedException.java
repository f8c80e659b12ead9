package io.partita.client;

/**
 * 409 txid-conflict: the txId was already used with another payload (account, type or amount). Nothing changed; use a
 * new txId for a new transaction.
 */
public final class IdReusedException extends PartitaException {

    public IdReusedException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
