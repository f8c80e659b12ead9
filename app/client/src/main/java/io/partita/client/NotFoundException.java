package io.partita.client;

/** 404: the account (or transfer account, job) does not exist. */
public final class NotFoundException extends PartitaException {

    public NotFoundException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
