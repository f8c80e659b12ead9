package io.partita.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a member's store lives and how much native memory it may take.
 *
 * @param directory        the member's own directory: {@code partita.data-dir} and the member's subdirectory under it
 *                         ({@link #memberDirectory})
 * @param durability       {@link Durability#FLUSH} or {@link Durability#FSYNC} (a {@code MEMORY} node opens no store)
 * @param cacheBytes       the block cache, which also holds the index and filter blocks and is charged with the
 *                         memtables: the bound of the store's native memory, give or take a few MiB of the engine's own
 * @param writeBufferBytes the memtables of all column families together, counted inside {@code cacheBytes}
 * @param maxQueuedWrites  writes waiting for the committer at most; past it a write is refused ({@link StoreBusy}),
 *                         never waited for
 */
public record StoreSettings(Path directory, Durability durability, long cacheBytes, long writeBufferBytes,
                            int maxQueuedWrites) {

    public static final long DEFAULT_CACHE_BYTES = 64L << 20;
    public static final long DEFAULT_WRITE_BUFFER_BYTES = 32L << 20;
    public static final int DEFAULT_MAX_QUEUED_WRITES = 10_000;

    public StoreSettings {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(durability, "durability");
        if (!durability.onDisk()) {
            throw new IllegalArgumentException("a store is opened for FLUSH or FSYNC, not " + durability);
        }
        if (writeBufferBytes < (1L << 20) || cacheBytes < writeBufferBytes) {
            throw new IllegalArgumentException("needs writeBufferBytes >= 1 MiB and cacheBytes >= writeBufferBytes");
        }
        if (maxQueuedWrites < 1) {
            throw new IllegalArgumentException("maxQueuedWrites must be positive");
        }
    }

    /** The defaults, in {@code directory}. */
    public static StoreSettings of(Path directory, Durability durability) {
        return new StoreSettings(directory, durability, DEFAULT_CACHE_BYTES, DEFAULT_WRITE_BUFFER_BYTES,
                DEFAULT_MAX_QUEUED_WRITES);
    }

    /**
     * A member's directory under the data directory, from a name that stays the same across the member's restarts (a
     * pod's name, or host and port for nodes started from one working directory), so that a restarted member finds
     * its own data and two members never share one.
     */
    public static Path memberDirectory(Path dataDir, String memberName) {
        String safe = memberName.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.isEmpty() || safe.startsWith(".")) {
            throw new IllegalArgumentException("not a usable member name: " + memberName);
        }
        return dataDir.resolve(safe);
    }
}
