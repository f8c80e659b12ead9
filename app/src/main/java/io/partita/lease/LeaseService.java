package io.partita.lease;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.Members;
import io.partita.node.PartitionSentinels;
import io.partita.node.RemoveValue;
import io.partita.node.Timers;
import io.partita.refusal.GridFailures;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Worker lease groups in the grid: each call is one entry processor on the group's entry ({@link LeaseCall}), stamped
 * with this node's clock, and its changes counted in the node's meters ({@code partita_lease_grants_total},
 * {@code _moves_total}, {@code _expiries_total}).
 * Calls start on the request thread and complete on a Hazelcast thread, without blocking; the views
 * ({@link #find}, {@link #list}) block their caller. {@link #expireAll} runs on the bean's own timer thread every
 * second on the oldest member only, so that a group nobody calls still loses its dead workers on time. The bean's
 * fields are final and its counters are Micrometer's, which take concurrent updates.
 */
@Context
public class LeaseService {

    /** What the partition-lost refusals name. */
    private static final String WHAT = "Lease group";

    private final HazelcastInstance hazelcast;
    private final IMap<String, LeaseGroup> groups;
    private final LongSupplier clock;
    private final Counter grants;
    private final Counter moves;
    private final Counter expiries;
    /** Its own timer, stopped with the bean ({@link Timers}). */
    private final ScheduledExecutorService sweeper = Timers.single("partita-lease-sweep");

    @Inject
    LeaseService(HazelcastInstance hazelcast, MeterRegistry meters) {
        this(hazelcast, meters, () -> ClusterClock.now(hazelcast));
    }

    LeaseService(HazelcastInstance hazelcast, MeterRegistry meters, LongSupplier clock) {
        this.hazelcast = hazelcast;
        this.groups = hazelcast.getMap(LeaseFeature.LEASE_GROUPS);
        this.clock = clock;
        this.grants = Counter.builder("partita.lease.grants").description("Shards granted to lease workers")
                .register(meters);
        this.moves = Counter.builder("partita.lease.moves")
                .description("Shards revoked from one lease worker to move to another").register(meters);
        this.expiries = Counter.builder("partita.lease.expiries")
                .description("Lease workers removed because their lease ended").register(meters);
    }

    /** Now by the clock leases are stamped and judged with: the cluster's time ({@link ClusterClock}). */
    long now() {
        return clock.getAsLong();
    }

    /** The member this service calls through. */
    HazelcastInstance owner() {
        return hazelcast;
    }

    /**
     * Creates the group unless it exists. Refused as partition-lost while the partition of its entry has no data (a
     * restart still bringing it back from disk, or every copy lost): a group created there now would take the place of
     * the one coming back, and grant its fencing tokens again from 1.
     */
    CompletionStage<LeaseAnswer> create(String group, int shards, long leaseMillis) {
        long now = clock.getAsLong();
        return PartitionSentinels.of(hazelcast).refuseIfLostAsync(WHAT, group)
                .thenCompose(none -> call(group, LeaseCall.create(shards, leaseMillis, now)))
                .exceptionally(LeaseService::translate);
    }

    CompletionStage<LeaseAnswer> join(String group, String requestId) {
        return call(group, LeaseCall.join(requestId, clock.getAsLong()));
    }

    CompletionStage<LeaseAnswer> renew(String group, String workerId) {
        return call(group, LeaseCall.renew(workerId, clock.getAsLong()));
    }

    CompletionStage<LeaseAnswer> leave(String group, String workerId) {
        return call(group, LeaseCall.leave(workerId, clock.getAsLong()));
    }

    CompletionStage<LeaseAnswer> check(String group, int shard, long token) {
        return groups.submitToKey(group, new FenceCheck(shard, token)).thenCompose(answer -> found(group, answer))
                .exceptionally(LeaseService::translate);
    }

    /** The group, or empty when there is none; refused as partition-lost while its partition has no data. */
    Optional<LeaseGroup> find(String group) {
        try {
            LeaseGroup found = groups.get(group);
            if (found == null) {
                PartitionSentinels.of(hazelcast).refuseIfLost(WHAT, group);
            }
            return Optional.ofNullable(found);
        } catch (RuntimeException e) {
            throw GridFailures.translate(e);
        }
    }

    List<Map.Entry<String, LeaseGroup>> list() {
        try {
            return groups.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList();
        } catch (RuntimeException e) {
            throw GridFailures.translate(e);
        }
    }

    /** Whether the group was there to delete; refused as partition-lost while its partition has no data. */
    boolean delete(String group) {
        try {
            boolean deleted = Boolean.TRUE.equals(BackedUpCalls.executeOnKey(hazelcast, groups.getName(), group,
                    new RemoveValue<>(LeaseFeature.LEASE_GROUPS)));
            if (!deleted) {
                PartitionSentinels.of(hazelcast).refuseIfLost(WHAT, group);
            }
            return deleted;
        } catch (RuntimeException e) {
            throw GridFailures.translate(e);
        }
    }

    /** Removes the workers whose lease ended from every group; on the oldest member only. */
    @PostConstruct
    void start() {
        sweeper.scheduleWithFixedDelay(this::expireAll, 1, 1, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        sweeper.shutdownNow();
    }

    void expireAll() {
        if (!hazelcast.getLifecycleService().isRunning()
                || !Members.isOldest(hazelcast)) {
            return;
        }
        try {
            // One question per member first: the expiry is an operation on every partition, every second, and most
            // clusters have no lease group at all.
            if (!groups.isEmpty()) {
                groups.executeOnEntries(LeaseCall.expire(clock.getAsLong())).values().forEach(this::count);
            }
        } catch (RuntimeException e) {
            // A minority member (split-brain protection) or one shutting down: the next round tries again.
        }
    }

    /**
     * Through {@link BackedUpCalls}: the group's disk write is queued to the committer and the call answered once it
     * is durable, off the partition thread.
     */
    private CompletionStage<LeaseAnswer> call(String group, LeaseCall call) {
        return BackedUpCalls.submitToKey(hazelcast, LeaseFeature.LEASE_GROUPS, group, call).thenCompose(answer -> {
            count(answer);
            return found(group, answer);
        }).exceptionally(LeaseService::translate);
    }

    /**
     * {@code answer}, unless it found no group while the group's partition has no data (a restart still bringing it
     * back from disk, or every copy lost): then it may exist, and the stage fails as partition-lost.
     */
    private CompletionStage<LeaseAnswer> found(String group, LeaseAnswer answer) {
        if (answer.status() != LeaseAnswer.Status.NO_GROUP) {
            return CompletableFuture.completedFuture(answer);
        }
        return PartitionSentinels.of(hazelcast).refuseIfLostAsync(WHAT, group).thenApply(none -> answer);
    }

    private void count(LeaseAnswer answer) {
        LeaseGroup.Changes changes = answer.changes();
        grants.increment(changes.grants());
        moves.increment(changes.moves());
        expiries.increment(changes.expiries());
    }

    private static LeaseAnswer translate(Throwable failure) {
        throw GridFailures.translate(failure);
    }
}
