package io.partita.client;

/** 409 {@code *-exists}: an account (or a job) with this id exists. */
public final class AlreadyExistsException extends PartitaException {

    public AlreadyExistsException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
