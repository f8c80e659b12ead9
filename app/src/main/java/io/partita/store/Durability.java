package io.partita.store;

/**
 * How durable an acknowledged transaction is: {@code partita.durability} ({@code PARTITA_DURABILITY}).
 *
 * <p>What each mode survives, once its write is acknowledged:
 * <ul>
 *   <li>{@link #MEMORY}: the loss of any one member (the synchronous backup), nothing more: a stop of every member
 *       loses everything. No store is opened.</li>
 *   <li>{@link #FLUSH}: also any process death, of every member at once: the write is in the operating system's hands
 *       (the store's write-ahead log, written but not synced) before the acknowledgement. A power loss or kernel crash
 *       can lose the last writes the OS had not written back.</li>
 *   <li>{@link #FSYNC}: also a power loss: the write-ahead log is synced before the acknowledgement, one sync for
 *       every write waiting at that moment (group commit).</li>
 * </ul>
 */
public enum Durability {
    MEMORY,
    FLUSH,
    FSYNC;

    /** Whether this mode keeps a store on disk. */
    public boolean onDisk() {
        return this != MEMORY;
    }
}
