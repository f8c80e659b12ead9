package io.partita.client;

/**
 * The client's own TLS check refused a node: its certificate is not trusted (see {@code Builder#tls}), or does not name
 * the host the client called. Nothing was sent, and sending again would be refused the same way, so it is not retried.
 */
public final class TlsException extends RuntimeException {

    TlsException(String message, Throwable cause) {
        super(message, cause);
    }
}
