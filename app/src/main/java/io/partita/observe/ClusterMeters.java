package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import com.hazelcast.partition.Partition;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.partita.account.AccountFeature;

import java.util.function.ToDoubleFunction;

/**
 * This member's part of the cluster in {@code /prometheus}: {@code partita_partitions_owned},
 * {@code partita_cluster_members}, {@code partita_cluster_safe} (1 or 0), {@code partita_map_entries{map,replica}}
 * (this member's primary and backup entries of each map), and the cluster-wide migration counters of
 * {@link MigrationTracker}: {@code partita_migrations_completed_total}, {@code partita_migrations_failed_total},
 * {@code partita_partitions_moved_total}, {@code partita_migrations_in_flight}.
 * <b>Threads:</b> every value is read when Prometheus scrapes, on the HTTP thread serving the scrape, from tables and
 * statistics the member keeps (O(partitions), never O(entries)); whether the cluster is safe is
 * {@link ClusterSafety}'s last answer, not a round trip to every member per scrape.
 *
 * <p>A member that is shutting down reports NaN rather than failing the scrape.
 */
@Context
class ClusterMeters {

    ClusterMeters(MeterRegistry registry, HazelcastInstance hazelcast, MigrationTracker migrations,
                  ClusterSafety safety) {
        Gauge.builder("partita.partitions.owned", hazelcast, guarded(ClusterMeters::ownedPartitions))
                .description("Partitions whose primary replica this member owns")
                .register(registry);
        Gauge.builder("partita.cluster.members", hazelcast, guarded(h -> h.getCluster().getMembers().size()))
                .description("Members in the cluster as this member sees it")
                .register(registry);
        Gauge.builder("partita.cluster.safe", safety, s -> s.isSafe() ? 1 : 0)
                .description("1 when every partition has its backups and no migration runs")
                .register(registry);
        for (String map : new String[] {AccountFeature.ACCOUNTS, AccountFeature.JOURNAL}) {
            Gauge.builder("partita.map.entries", hazelcast, guarded(h -> localStats(h, map).getOwnedEntryCount()))
                    .description("Entries of the map held by this member").tags("map", map, "replica", "primary")
                    .register(registry);
            Gauge.builder("partita.map.entries", hazelcast, guarded(h -> localStats(h, map).getBackupEntryCount()))
                    .description("Entries of the map held by this member").tags("map", map, "replica", "backup")
                    .register(registry);
        }
        FunctionCounter.builder("partita.migrations.completed", migrations, MigrationTracker::completed)
                .description("Replica migrations completed in the cluster since this node joined")
                .register(registry);
        FunctionCounter.builder("partita.migrations.failed", migrations, MigrationTracker::failed)
                .description("Replica migrations failed in the cluster since this node joined")
                .register(registry);
        FunctionCounter.builder("partita.partitions.moved", migrations, MigrationTracker::partitionsMoved)
                .description("Changes of a partition's primary owner since this node joined")
                .register(registry);
        Gauge.builder("partita.migrations.in.flight", migrations, MigrationTracker::inFlight)
                .description("Migrations of the running migration process not yet completed")
                .register(registry);
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
