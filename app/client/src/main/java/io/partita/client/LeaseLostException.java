package io.partita.client;

/**
 * 410 lease-lost: the worker holds no lease in the group any more (it left, or its lease ran out and its shards went
 * to the others). Stop the work of its shards and join again.
 */
public final class LeaseLostException extends PartitaException {

    public LeaseLostException(int status, String type, String title, String detail) {
        super(status, type, title, detail);
    }
}
