package io.partita.client;

/**
 * 503 partition-lost: every copy of the partition that holds the account left the cluster at once; its data is back
 * when those members rejoin. Nothing changed. Not retried by the client: it is no transient busy signal, and the
 * caller decides how long to wait.
 */
public final class PartitionLostException extends PartitaException {

    public PartitionLostException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
