package io.partita.store;

/** The engine failed to read or write (a full disk, a corrupt file, a store already open in another process). */
public final class StoreFailure extends RuntimeException {

    StoreFailure(String message, Throwable cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}
