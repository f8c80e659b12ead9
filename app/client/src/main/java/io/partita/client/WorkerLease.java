package io.partita.client;

import java.util.List;

/**
 * A worker's lease in a lease group: its id, how long the lease lasts from the answer (renew well within it), and the
 * shards it holds, each with the fencing token to send with the work it does on that shard.
 */
public record WorkerLease(String group, String workerId, long leaseMillis, List<Shard> shards) {

    /** One shard a worker holds and its fencing token (higher than any earlier holder's). */
    public record Shard(int shard, long token) {
    }
}
