package io.partita.account;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;

import java.time.Duration;

/**
 * How a member's {@link JournalWriter} batches and sweeps, from {@code partita.journal.*}. Carried in the member's user
 * context (put there with its {@code Config}), because the writer is reached from entry processors, which know their
 * member and nothing else.
 *
 * @param retention     how long journal entries, and with them the duplicate check of a txId, are kept (on the
 *                      members' disks, or in the journal map in memory mode)
 * @param inMemory      how long the journal map keeps entries: the whole retention in memory mode, the last seconds
 *                      when members keep the journal on disk (the disk answers for older ones)
 * @param flushBatch    a partition's entries are written once this many wait ...
 * @param flushDelay    ... or once the oldest has waited this long
 * @param sweepInterval how often the oldest member looks for tail entries the journal should hold by now (entries of
 *                      a member that died before writing them, or moved with a migration)
 * @param hold          how long a tail keeps an entry even once journaled: longer than a member takes to notice that
 *                      it is cut off (the heartbeat timeout). While members are missing ({@code node.Membership}),
 *                      tails keep everything recorded since {@code hold} before the cluster was last whole.
 * @param onDisk        whether members keep the journal on disk ({@code flush} or {@code fsync}): the journal map is
 *                      then a window on the last seconds, which neither the tails' trimming nor a merge depends on
 */
public record JournalSettings(Duration retention, Duration inMemory, int flushBatch, Duration flushDelay,
                              Duration sweepInterval, Duration hold, boolean onDisk) {

    /**
     * The most entries a tail keeps on purpose (within {@code hold}), so that a busy account's value stays small: every
     * write copies the tail it appends to, and at 128 those copies were the largest share of what a node allocated
     * under batches (two fifths), and of the garbage its old generation gathered between collections. Past it the
     * oldest journaled entries leave the tail as usual; if a network split then merges this side into the other, they
     * are put back from the journal map or the disk first ({@link TailRestore}), and the side merged into finds its
     * own there ({@link AccountUnion}).
     */
    public static final int MAX_HELD = 32;

    /**
     * How many journaled entries past the hold a write lets gather in a tail before it trims them, all at once: a tail
     * is copied to be trimmed, so trimming one entry per write doubled what each write allocates. A tail over
     * {@link #MAX_HELD} sheds down to this many below it, whatever the count.
     */
    public static final int TRIM_BATCH = 16;

    private static final String USER_CONTEXT_KEY = "partita.journal-settings";
    public static final JournalSettings DEFAULTS = new JournalSettings(Duration.ofHours(24), Duration.ofHours(24), 64,
            Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(30), false);

    /** Tail entries at least this old are written by the sweep: well past any flush that is merely queued. */
    Duration sweepGrace() {
        return flushDelay.multipliedBy(10).plusSeconds(1);
    }

    public void putInto(Config config) {
        config.getUserContext().put(USER_CONTEXT_KEY, this);
    }

    static JournalSettings of(HazelcastInstance hazelcast) {
        Object settings = hazelcast.getUserContext().get(USER_CONTEXT_KEY);
        return settings instanceof JournalSettings journal ? journal : DEFAULTS;
    }
}
