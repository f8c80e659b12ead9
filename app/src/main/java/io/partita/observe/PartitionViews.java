package io.partita.observe;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.partition.Partition;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.account.AccountFeature;
import io.partita.node.HazelcastConfigs;
import io.partita.node.Internals;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The partition table with entry counts, and each node's share of it, cheap enough for a dashboard to poll every
 * second with a million accounts: owners and backups come from this member's copy of the partition table; entry
 * counts come from one {@link MemberSnapshotTask} per member, which reads the sizes of its own record stores (no
 * entry is scanned). The gathered snapshots are kept for {@link #FRESH_FOR}, so any number of pollers on a node cost
 * one round of tasks per interval.
 * <b>Threads:</b> callers run on the HTTP blocking pool; {@link #snapshots()} is synchronized, so concurrent callers
 * wait for one gathering round instead of starting their own, and the gathered snapshots are only read and replaced
 * under that monitor.
 *
 * <p>A round waits at most {@link #GATHER_TIMEOUT} for every member; a member that fails or leaves meanwhile is left
 * out, and its partitions show no count (null) until the next round.
 */
@Singleton
class PartitionViews {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionViews.class);
    static final Duration FRESH_FOR = Duration.ofMillis(500);
    static final Duration GATHER_TIMEOUT = Duration.ofSeconds(2);

    private final HazelcastInstance hazelcast;
    private final IExecutorService executor;
    private final int backupCount;
    private volatile Gathered gathered;
    /** Whether a round that {@link #latest} started is still under way. */
    private final AtomicBoolean refreshing = new AtomicBoolean();

    PartitionViews(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.executor = hazelcast.getExecutorService(ObserveFeature.VIEWS_EXECUTOR);
        this.backupCount = hazelcast.getConfig().getMapConfig(AccountFeature.ACCOUNTS).getTotalBackupCount();
    }

    /** All partitions in id order, with owner, backups and the accounts in each. */
    List<PartitionView> partitions() {
        Gathered snapshots = snapshots();
        Map<UUID, String> addresses = addresses();
        List<PartitionView> views = new ArrayList<>(HazelcastConfigs.PARTITION_COUNT);
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            int id = partition.getPartitionId();
            Member owner = partition.getOwner();
            List<String> backups = Internals.backupReplicas(hazelcast, id, backupCount).stream()
                    .map(uuid -> addresses.getOrDefault(uuid, uuid.toString()))
                    .toList();
            views.add(new PartitionView(id, owner == null ? null : ClusterController.address(owner), backups,
                    snapshots.entries(id, owner == null ? null : owner.getUuid())));
        }
        return views;
    }

    /** Every member with its owned partitions, owned accounts and its node's transaction rate, by address. */
    List<NodeView> nodes() {
        Gathered snapshots = snapshots();
        Map<UUID, Integer> owned = new HashMap<>();
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            if (partition.getOwner() != null) {
                owned.merge(partition.getOwner().getUuid(), 1, Integer::sum);
            }
        }
        return hazelcast.getCluster().getMembers().stream()
                .map(member -> {
                    MemberSnapshot snapshot = snapshots.byMember().get(member.getUuid());
                    return new NodeView(member.getUuid().toString(), ClusterController.address(member),
                            member.getAttribute(HazelcastConfigs.HTTP_URL_ATTRIBUTE), member.localMember(),
                            owned.getOrDefault(member.getUuid(), 0),
                            snapshot == null ? null : snapshot.ownedAccounts(),
                            snapshot == null ? null : snapshot.transactions(),
                            snapshot == null ? null : snapshot.transactionsPerSecond(),
                            snapshot == null ? null : snapshot.clockOffsetMillis());
                })
                .sorted(Comparator.comparing(NodeView::address))
                .toList();
    }

    /**
     * The last round's snapshots without waiting for any member (empty before the first): a stale one starts a new
     * round on the common pool, for the next caller. {@code GET /cluster} reads the members' clock offsets here, so
     * that a paused member never holds it.
     */
    Gathered latest() {
        Gathered last = gathered;
        boolean stale = last == null || System.nanoTime() - last.at() > FRESH_FOR.toNanos();
        if (stale && refreshing.compareAndSet(false, true)) {
            CompletableFuture.runAsync(() -> {
                try {
                    snapshots();
                } catch (RuntimeException e) {
                    LOG.debug("No snapshots gathered: {}", e.toString());
                } finally {
                    refreshing.set(false);
                }
            });
        }
        return last == null ? Gathered.of(Map.of(), System.nanoTime()) : last;
    }

    synchronized Gathered snapshots() {
        long now = System.nanoTime();
        if (gathered == null || now - gathered.at() > FRESH_FOR.toNanos()) {
            gathered = gather();
        }
        return gathered;
    }

    private Gathered gather() {
        Set<Member> members = hazelcast.getCluster().getMembers();
        Map<Member, Future<MemberSnapshot>> futures = executor.submitToMembers(new MemberSnapshotTask(), members);
        long deadline = System.nanoTime() + GATHER_TIMEOUT.toNanos();
        Map<UUID, MemberSnapshot> answers = new HashMap<>();
        for (Map.Entry<Member, Future<MemberSnapshot>> future : futures.entrySet()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                MemberSnapshot snapshot = future.getValue().get(left, TimeUnit.NANOSECONDS);
                answers.put(snapshot.member(), snapshot);
            } catch (ExecutionException | TimeoutException e) {
                // A member leaving or busy: its partitions show no count this round.
                future.getValue().cancel(true);
                LOG.debug("No partition snapshot from {}: {}", future.getKey(), e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Gathered.of(answers, System.nanoTime());
    }

    private Map<UUID, String> addresses() {
        Map<UUID, String> addresses = new HashMap<>();
        hazelcast.getCluster().getMembers()
                .forEach(member -> addresses.put(member.getUuid(), ClusterController.address(member)));
        return addresses;
    }

    /**
     * Snapshots of one gathering round. During a migration two members may both report a partition, or none may;
     * the count of the owner this member's table names wins, then any report, then none.
     */
    record Gathered(Map<UUID, MemberSnapshot> byMember, Map<Integer, Map<UUID, Long>> reports, long at) {

        static Gathered of(Map<UUID, MemberSnapshot> byMember, long at) {
            Map<Integer, Map<UUID, Long>> reports = new HashMap<>();
            byMember.values().forEach(snapshot -> {
                int[] ids = snapshot.partitionIds();
                long[] entries = snapshot.accountEntries();
                for (int i = 0; i < ids.length; i++) {
                    reports.computeIfAbsent(ids[i], id -> new HashMap<>()).put(snapshot.member(), entries[i]);
                }
            });
            return new Gathered(Map.copyOf(byMember), reports, at);
        }

        @Nullable
        Long entries(int partitionId, @Nullable UUID owner) {
            Map<UUID, Long> byReporter = reports.get(partitionId);
            if (byReporter == null || byReporter.isEmpty()) {
                return null;
            }
            Long fromOwner = owner == null ? null : byReporter.get(owner);
            return fromOwner != null ? fromOwner : byReporter.values().iterator().next();
        }
    }

    /**
     * @param owner   the address ({@code host:port}) of the member owning the partition; null before assignment
     * @param backups the addresses of the members holding the accounts' backups, in replica order
     * @param entries accounts in the partition; null while its owner has not answered (joining or leaving)
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record PartitionView(int id, @Nullable String owner, List<String> backups, @Nullable Long entries) {
    }

    /**
     * @param accounts              accounts in the partitions the member owns; null while it has not answered
     * @param transactions          transactions its node answered since it started
     * @param transactionsPerSecond its node's recent rate
     * @param clockOffsetMillis     how far its wall clock is ahead of the cluster's time
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record NodeView(String uuid, String address, @Nullable String httpUrl, boolean local, int ownedPartitions,
                    @Nullable Long accounts, @Nullable Long transactions, @Nullable Double transactionsPerSecond,
                    @Nullable Long clockOffsetMillis) {
    }
}
