package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionLostEvent;
import io.partita.refusal.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells whether a partition still has its data: every partition holds one small sentinel entry, created once when a
 * new cluster forms, kept with the same backups as the ledger and moved with the partition. A partition whose owner
 * and backups all left at once (a crash of two members with one backup, or the other side of a network split) comes
 * back empty, without its sentinel: then an account missing there may exist after all, so the ledger answers 503
 * {@code partition-lost} instead of 404 and opens no account there, until the data is back.
 * <b>Threads:</b> {@link #lost} is called on the partition thread of the partition it asks about (it reads the local
 * store); the lifecycle and partition-lost listeners run on Hazelcast's event threads; the rest on any thread. What
 * they share is a count of lost events (atomic) and the sentinels held before a merge (a concurrent set).
 *
 * <p>The data comes back with a split-brain merge: the sentinel map keeps the existing entry and never takes the
 * merging one (so that, while the merge runs, the other maps' merge policies can still tell a lost partition), and a
 * member that merged restores the sentinels it held once all its maps have merged ({@code MERGED}). An operator who
 * knows the data is gone for good restores a partition's sentinel by hand ({@link #restore}), accepting the loss.
 */
public final class PartitionSentinels {

    /** One entry per partition, lost exactly when the partition's data is lost. */
    public static final String MAP = "partita-sentinels";

    private static final Logger LOG = LoggerFactory.getLogger(PartitionSentinels.class);
    private static final String USER_CONTEXT_KEY = "partita.partition-sentinels";

    private final HazelcastInstance hazelcast;
    private final LocalStores stores;
    private final AtomicLong lostEvents = new AtomicLong();
    private final Set<Integer> heldBeforeMerge = new ConcurrentSkipListSet<>();

    private PartitionSentinels(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.stores = LocalStores.of(hazelcast);
    }

    public static PartitionSentinels of(HazelcastInstance hazelcast) {
        return PerMember.of(hazelcast, USER_CONTEXT_KEY, PartitionSentinels.class, PartitionSentinels::new);
    }

    /**
     * Creates every partition's sentinel if no partition has one and {@code mayBeNew} (no member came back with data on
     * its disk: a new cluster), and starts listening for lost partitions and merges. A cluster restarted from its disks
     * gets a partition's sentinel back once a disk has brought the partition's data back ({@link #restore}); until
     * then the partition is lost. Called once a member has started, before it serves anything. Other members starting
     * beside this one see the map no longer empty and leave the rest to it, so a write that meets a slow backup is
     * repeated rather than failing the start: a member that gave up half-way would leave the partitions it had not
     * reached without a sentinel, answering {@code partition-lost} for good.
     */
    void start(boolean mayBeNew) {
        hazelcast.getPartitionService().addPartitionLostListener(this::partitionLost);
        hazelcast.getLifecycleService().addLifecycleListener(this::lifecycle);
        IMap<String, Long> sentinels = map();
        if (mayBeNew && sentinels.isEmpty()) {
            // Said where it is decided: a node started alone with an empty disk cannot tell a new cluster from one
            // whose other members, and their disks, are still to come.
            LOG.info("Starting a new, empty ledger: none of the {} members present found data on its disk. If this "
                    + "cluster held data before, its members with data must start before one whose data directory "
                    + "was lost, or all with partita.cluster-size set", hazelcast.getCluster().getMembers().size());
            long now = ClusterClock.now(hazelcast);
            Members.repeatUntilDone(() -> {
                for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
                    sentinels.putIfAbsent(PartitionKeys.of(hazelcast, partition), now);
                }
            });
        }
    }

    /** Whether {@code partition} lost its data. Call it on that partition's thread. */
    public boolean lost(int partition) {
        return stores.value(MAP, partition, PartitionKeys.of(hazelcast, partition)) == null;
    }

    /** Whether {@code partition} lost its data, asked of its owner (an operation: from any thread but its own). */
    public boolean lostAtOwner(int partition) {
        return !map().containsKey(PartitionKeys.of(hazelcast, partition));
    }

    /** {@link #lostAtOwner}, answered later: from any thread, without waiting. */
    public CompletionStage<Boolean> lostAtOwnerAsync(int partition) {
        return map().getAsync(PartitionKeys.of(hazelcast, partition)).thenApply(Objects::isNull);
    }

    /**
     * Where {@code what} under {@code key} was not found: throws a partition-lost refusal when the partition of {@code
     * key} has no data now (a restart still bringing it back from disk, or every copy lost), for then it may exist, and
     * returns when it does not. Asked of the owner: from any thread but the partition's own.
     */
    public void refuseIfLost(String what, String key) {
        int partition = stores.partitionOf(key);
        if (lostAtOwner(partition)) {
            throw Refusal.partitionLost(what, key, partition);
        }
    }

    /** {@link #refuseIfLost}, answered later: the stage fails with the refusal, or completes. Any thread. */
    public CompletionStage<Void> refuseIfLostAsync(String what, String key) {
        int partition = stores.partitionOf(key);
        return lostAtOwnerAsync(partition).thenAccept(lost -> {
            if (lost) {
                throw Refusal.partitionLost(what, key, partition);
            }
        });
    }

    /** The partitions without their data now, as the whole cluster holds it. */
    public List<Integer> lostPartitions() {
        Set<Integer> present = new TreeSet<>();
        for (String key : map().keySet()) {
            present.add(stores.partitionOf(key));
        }
        List<Integer> lost = new ArrayList<>();
        for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
            if (!present.contains(partition)) {
                lost.add(partition);
            }
        }
        return lost;
    }

    /** Declares {@code partition}'s data present again (it came back, or it is accepted as gone). */
    public boolean restore(int partition) {
        return map().putIfAbsent(PartitionKeys.of(hazelcast, partition), ClusterClock.now(hazelcast)) == null;
    }

    /** Partition-lost events this member has seen since it started. */
    public long lostEvents() {
        return lostEvents.get();
    }

    /**
     * Hazelcast reports a partition lost whenever replicas up to {@code getLostBackupCount()} left at once; the data is
     * gone only when that reaches the sentinel's (and the ledger's) backup count. Below it a backup was promoted.
     */
    private void partitionLost(PartitionLostEvent event) {
        int backups = hazelcast.getConfig().getMapConfig(MAP).getBackupCount();
        if (event.getLostBackupCount() < backups) {
            LOG.debug("Partition {} lost replicas up to index {}; a backup took over, no data was lost",
                    event.getPartitionId(), event.getLostBackupCount());
            return;
        }
        lostEvents.incrementAndGet();
        LOG.error("Partition {} lost every copy of its data (lost replica index {}); its accounts answer 503 "
                        + "partition-lost until a merge brings the data back or an operator restores it",
                event.getPartitionId(), event.getLostBackupCount());
    }

    private void lifecycle(LifecycleEvent event) {
        switch (event.getState()) {
            case MERGING -> {
                heldBeforeMerge.clear();
                for (int partition = 0; partition < HazelcastConfigs.PARTITION_COUNT; partition++) {
                    if (stores.owns(partition) && stores.size(MAP, partition) > 0) {
                        heldBeforeMerge.add(partition);
                    }
                }
            }
            case MERGED -> {
                List<Integer> restored = new ArrayList<>();
                for (int partition : heldBeforeMerge) {
                    if (restore(partition)) {
                        restored.add(partition);
                    }
                }
                heldBeforeMerge.clear();
                if (!restored.isEmpty()) {
                    LOG.warn("After the merge, partitions {} have their data again", restored);
                }
            }
            default -> {
                // nothing to do
            }
        }
    }

    private IMap<String, Long> map() {
        return hazelcast.getMap(MAP);
    }
}
