package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import com.hazelcast.partition.Partition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.account.AccountFeature;
import io.partita.node.DiskShares;
import io.partita.node.Internals;

import java.util.function.ToDoubleFunction;

/**
 * This member's part of the cluster in {@code /prometheus}: {@code partita_partitions_owned},
 * {@code partita_cluster_members}, {@code partita_cluster_safe} (1 or 0), {@code partita_map_entries{map,replica}}
 * (this member's primary and backup entries of each map), and the cluster-wide migration counters of
 * {@link MigrationTracker}: {@code partita_migrations_completed_total}, {@code partita_migrations_failed_total},
 * {@code partita_partitions_moved_total}, {@code partita_migrations_in_flight}; and
 * {@code partita_member_operations_received_total}, the operations other members sent this one (forwarded calls,
 * backups, migrations), which divided by the transactions gives member-to-member traffic per transaction.
 * Every value is read when Prometheus scrapes, on the HTTP thread serving the scrape, from tables and
 * statistics the member keeps (O(partitions), never O(entries)); whether the cluster is safe is
 * {@link ClusterSafety}'s last answer, not a round trip to every member per scrape.
 *
 * <p>A member that is shutting down reports NaN rather than failing the scrape.
 */
@Context
class ClusterMeters {

    ClusterMeters(MeterRegistry registry, HazelcastInstance hazelcast, MigrationTracker migrations,
                  ClusterSafety safety) {
        Meters.gauge(registry, "partita.partitions.owned", hazelcast, guarded(ClusterMeters::ownedPartitions),
                "Partitions whose primary replica this member owns");
        Meters.gauge(registry, "partita.cluster.members", hazelcast, guarded(h -> h.getCluster().getMembers().size()),
                "Members in the cluster as this member sees it");
        Meters.gauge(registry, "partita.cluster.safe", safety, s -> s.isSafe() ? 1 : 0,
                "1 when every partition has its backups and no migration runs");
        for (String map : new String[] {AccountFeature.ACCOUNTS, AccountFeature.JOURNAL}) {
            Meters.gauge(registry, "partita.map.entries", hazelcast,
                    guarded(h -> localStats(h, map).getOwnedEntryCount()),
                    "Entries of the map held by this member", "map", map, "replica", "primary");
            Meters.gauge(registry, "partita.map.entries", hazelcast,
                    guarded(h -> localStats(h, map).getBackupEntryCount()),
                    "Entries of the map held by this member", "map", map, "replica", "backup");
        }
        Meters.counter(registry, "partita.migrations.completed", migrations, MigrationTracker::completed,
                "Replica migrations completed in the cluster since this node joined");
        Meters.counter(registry, "partita.migrations.failed", migrations, MigrationTracker::failed,
                "Replica migrations failed in the cluster since this node joined");
        Meters.counter(registry, "partita.partitions.moved", migrations, MigrationTracker::partitionsMoved,
                "Changes of a partition's primary owner since this node joined");
        Meters.gauge(registry, "partita.migrations.in.flight", migrations, MigrationTracker::inFlight,
                "Migrations of the running migration process not yet completed");
        Meters.counter(registry, "partita.disk.share.runs", hazelcast,
                guarded(h -> DiskShares.received(h).runs()),
                "Runs of journal entries that migrations brought to this member's disk (a partition's share comes in "
                        + "runs of " + DiskShares.SHARE_RUN + ")");
        Meters.counter(registry, "partita.disk.share.entries", hazelcast,
                guarded(h -> DiskShares.received(h).entries()),
                "Journal entries that migrations brought to this member's disk");
        Meters.counter(registry, "partita.member.operations.received", hazelcast,
                guarded(h -> Internals.operationsReceived(h)),
                "Operations other members sent this member: forwarded calls, backups, migrations");
    }

    private static double ownedPartitions(HazelcastInstance hazelcast) {
        int owned = 0;
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            if (partition.getOwner() != null && partition.getOwner().localMember()) {
                owned++;
            }
        }
        return owned;
    }

    private static LocalMapStats localStats(HazelcastInstance hazelcast, String map) {
        return hazelcast.getMap(map).getLocalMapStats();
    }

    private static ToDoubleFunction<HazelcastInstance> guarded(ToDoubleFunction<HazelcastInstance> read) {
        return hazelcast -> {
            if (!hazelcast.getLifecycleService().isRunning()) {
                return Double.NaN;
            }
            try {
                return read.applyAsDouble(hazelcast);
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }
}
