package io.partita.client;

/**
 * 503 partition-lost: every copy of the partition that holds the account left the cluster at once; its data is back
 * when those members rejoin (or a restart's recovery puts it back). Nothing changed. The client sends the call again
 * within its retry budget, as the data may be back within seconds, and throws this when it is still the answer at the
 * end of the budget; the caller decides how much longer to wait.
 */
public final class PartitionLostException extends PartitaException {

    public PartitionLostException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
