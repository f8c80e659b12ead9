package io.partita.observe;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.node.HazelcastConfigs;
import io.partita.node.Internals;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Follows the migration processes the master runs. Hazelcast publishes them to the migration listeners of every
 * member, so each node counts the whole cluster's migrations since it joined (verified in
 * {@code PartitionViewsTest}: a non-master node sees the same events as the master). A promotion after a crash
 * arrives as a replica-0 migration without a source.
 * <b>Threads:</b> callbacks run on Hazelcast's event threads, possibly several at once for different partitions; the
 * running process is one immutable {@link MigrationState} behind an {@link AtomicReference} (read lock-free by
 * {@code GET /cluster}), and the counters, the owner table and the recent history are guarded by {@code this}.
 *
 * <p>{@code partitionsMoved} counts changes of a partition's primary owner: the tracker keeps the owner it last knew
 * of each partition, seeded from this member's partition table, and counts a successful replica-0 migration whose
 * destination differs from it. Replica (backup) migrations count as {@code completed} but not as moves.
 */
@Context
class MigrationTracker implements MigrationListener {

    static final int RECENT_EVENTS = 50;
    static final int RECENT_PROCESSES = 20;

    /** The running process, or null; moved forward without a lock ({@link #advance}). */
    private final AtomicReference<MigrationState> current = new AtomicReference<>();
    private final long since = System.currentTimeMillis();
    @GuardedBy("this")
    private final UUID[] owners = new UUID[HazelcastConfigs.PARTITION_COUNT];
    @GuardedBy("this")
    private final Deque<ReplicaMigration> recentEvents = new ArrayDeque<>();
    @GuardedBy("this")
    private final Deque<MigrationProcess> recentProcesses = new ArrayDeque<>();
    @GuardedBy("this")
    private long completed;
    @GuardedBy("this")
    private long failed;
    @GuardedBy("this")
    private long partitionsMoved;
    @GuardedBy("this")
    private long processes;
    @GuardedBy("this")
    private long processStartedAt;

    MigrationTracker(HazelcastInstance hazelcast) {
        synchronized (this) {
            for (int id = 0; id < owners.length; id++) {
                owners[id] = Internals.ownerOrNull(hazelcast, id);
            }
        }
        hazelcast.getPartitionService().addMigrationListener(this);
    }

    /** Migrations of the running process not yet completed; 0 when none runs. */
    int inFlight() {
        MigrationState state = current.get();
        return state == null ? 0 : state.getRemainingMigrations();
    }

    synchronized long completed() {
        return completed;
    }

    synchronized long failed() {
        return failed;
    }

    synchronized long partitionsMoved() {
        return partitionsMoved;
    }

    /** The counters since this node joined, with the most recent processes and replica migrations, newest first. */
    synchronized MigrationsView view() {
        return new MigrationsView(since, completed, failed, partitionsMoved, processes, inFlight(),
                List.copyOf(recentProcesses), List.copyOf(recentEvents));
    }

    @Override
    public void migrationStarted(MigrationState state) {
        current.set(state);
        synchronized (this) {
            processes++;
            processStartedAt = System.currentTimeMillis();
        }
    }

    @Override
    public void migrationFinished(MigrationState state) {
        current.set(null);
        long now = System.currentTimeMillis();
        synchronized (this) {
            // The duration is measured on this node's clock: the state's start time is the master's.
            long startedAt = processStartedAt == 0 ? now : processStartedAt;
            push(recentProcesses, new MigrationProcess(startedAt, now, now - startedAt,
                    state.getPlannedMigrations(), state.getCompletedMigrations(),
                    state.getTotalElapsedTime()), RECENT_PROCESSES);
            processStartedAt = 0;
        }
    }

    @Override
    public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
        advance(event.getMigrationState());
        record(event, true);
    }

    @Override
    public void replicaMigrationFailed(ReplicaMigrationEvent event) {
        advance(event.getMigrationState());
        record(event, false);
    }

    /**
     * Moves the running process's state forward. Events arrive on several event threads: a replica event handled
     * after its process finished, or after a later event of the same process, must not bring back an older state
     * (that left migrationsInFlight above 0 on a safe cluster until the next migration).
     */
    private void advance(MigrationState next) {
        current.accumulateAndGet(next, (running, candidate) -> running != null
                && running.getStartTime() == candidate.getStartTime()
                && candidate.getCompletedMigrations() >= running.getCompletedMigrations() ? candidate : running);
    }

    private synchronized void record(ReplicaMigrationEvent event, boolean success) {
        if (success) {
            completed++;
        } else {
            failed++;
        }
        int id = event.getPartitionId();
        Member destination = event.getDestination();
        if (success && event.getReplicaIndex() == 0 && destination != null && id < owners.length) {
            UUID before = owners[id];
            boolean moved = before == null
                    ? event.getSource() != null && !event.getSource().getUuid().equals(destination.getUuid())
                    : !before.equals(destination.getUuid());
            if (moved) {
                partitionsMoved++;
            }
            owners[id] = destination.getUuid();
        }
        push(recentEvents, new ReplicaMigration(id, event.getReplicaIndex(), address(event.getSource()),
                address(destination), success, event.getElapsedTime(), System.currentTimeMillis()), RECENT_EVENTS);
    }

    private static <T> void push(Deque<T> recent, T item, int keep) {
        recent.addFirst(item);
        while (recent.size() > keep) {
            recent.removeLast();
        }
    }

    private static String address(@Nullable Member member) {
        return member == null ? null : ClusterController.address(member);
    }

    /**
     * @param since           epoch milliseconds when this node started counting
     * @param completed       replica migrations completed (primaries and backups)
     * @param failed          replica migrations that failed (the master retries them)
     * @param partitionsMoved changes of a partition's primary owner, promotions after a crash included
     * @param processes       migration processes the master started
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record MigrationsView(long since, long completed, long failed, long partitionsMoved, long processes,
                          int inFlight, List<MigrationProcess> recentProcesses, List<ReplicaMigration> recentEvents) {
    }

    /** One migration process (a rebalance after a join or a leave), timed on this node's clock. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record MigrationProcess(long startedAt, long finishedAt, long durationMillis, int plannedMigrations,
                            int completedMigrations, long totalElapsedMillis) {
    }

    /** One replica of one partition copied from a member to another; {@code source} is null for a promotion. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ReplicaMigration(int partitionId, int replicaIndex, @Nullable String source,
                            @Nullable String destination, boolean success, long elapsedMillis, long at) {
    }
}
