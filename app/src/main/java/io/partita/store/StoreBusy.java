package io.partita.store;

/**
 * A write refused because the committer already has {@link StoreSettings#maxQueuedWrites} waiting: the disk is behind.
 * The caller answers 503 with Retry-After rather than waiting (a partition thread must never wait for a disk).
 */
public final class StoreBusy extends RuntimeException {

    StoreBusy(int queued) {
        super("the store's committer has " + queued + " writes waiting");
    }
}
