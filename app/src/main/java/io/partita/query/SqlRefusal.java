package io.partita.query;

/** Why a statement was refused before it reached the SQL engine; the message is shown to the client. */
final class SqlRefusal extends RuntimeException {

    SqlRefusal(String message) {
        super(message, null, false, false);
    }
}
