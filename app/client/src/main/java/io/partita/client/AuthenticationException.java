package io.partita.client;

/** 401 (no or wrong credentials) or 403 (the user may not call this route). */
public final class AuthenticationException extends PartitaException {

    public AuthenticationException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
