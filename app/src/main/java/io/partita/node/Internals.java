package io.partita.node;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.impl.MemberImpl;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.metrics.MetricDescriptor;
import com.hazelcast.internal.metrics.MetricDescriptorConstants;
import com.hazelcast.internal.metrics.collectors.MetricsCollector;
import com.hazelcast.internal.partition.InternalPartition;
import com.hazelcast.internal.partition.PartitionReplica;
import com.hazelcast.internal.server.ServerConnectionManager;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.map.impl.MapServiceContext;
import com.hazelcast.map.impl.recordstore.RecordStore;
import com.hazelcast.spi.impl.NodeEngineImpl;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The one place that reads Hazelcast's internal state, which the public API does not cover: the size of one
 * partition's part of a map, the backup replicas of a partition, the member's connections to other members
 * ({@link SilentPeers}), and how many operations other members sent it ({@link #operationsReceived}). (Two classes
 * extend Hazelcast's internal SPI instead, as its own services do: {@link BackedUpCalls}' operation and
 * {@link DiskShares}, a migration-aware service with its operations.) The first two are O(1) reads of structures
 * the member keeps anyway, which is what makes the partition views cheap with a million accounts (the public
 * alternatives scan the entries). Hazelcast is pinned at 5.4.0, so these calls cannot move under us; if an upgrade
 * breaks them, it breaks here and {@code PartitionViewsTest} says so.
 * Called on an executor thread of the member it reads, never on a partition thread. A record store's
 * size is read without the partition thread's ordering, so it may be a moment old, which a view tolerates.
 */
public final class Internals {

    private Internals() {
    }

    private static HazelcastInstanceImpl member(HazelcastInstance hazelcast) {
        return hazelcast instanceof HazelcastInstanceProxy proxy ? proxy.getOriginal()
                : (HazelcastInstanceImpl) hazelcast;
    }

    /**
     * Operations other members sent this member and its operation threads ran since it started: calls forwarded to a
     * partition's owner, backups, migrations and the like (Hazelcast's {@code operation.thread} metric
     * {@code completedPacketCount}), without the priority threads' heartbeats and cluster bookkeeping.
     */
    public static long operationsReceived(HazelcastInstance hazelcast) {
        long[] received = new long[1];
        nodeEngine(hazelcast).getMetricsRegistry().collect(new MetricsCollector() {
            @Override
            public void collectLong(MetricDescriptor descriptor, long value) {
                if (MetricDescriptorConstants.OPERATION_PREFIX_THREAD.equals(descriptor.prefix())
                        && MetricDescriptorConstants.OPERATION_METRIC_THREAD_COMPLETED_PACKET_COUNT
                        .equals(descriptor.metric())
                        && (descriptor.discriminatorValue() == null
                        || !descriptor.discriminatorValue().contains("priority"))) {
                    received[0] += value;
                }
            }

            @Override
            public void collectDouble(MetricDescriptor descriptor, double value) {
            }

            @Override
            public void collectException(MetricDescriptor descriptor, Exception e) {
            }

            @Override
            public void collectNoValue(MetricDescriptor descriptor) {
            }
        });
        return received[0];
    }

    public static NodeEngineImpl nodeEngine(HazelcastInstance hazelcast) {
        return member(hazelcast).node.getNodeEngine();
    }

    /** This member's connections to other members (and to peers it tries as members), opened or accepted. */
    static ServerConnectionManager memberConnections(HazelcastInstance hazelcast) {
        return member(hazelcast).node.getServer().getConnectionManager(EndpointQualifier.MEMBER);
    }

    /** The entries of {@code mapName} this member holds in each of {@code partitionIds}, primary or backup alike. */
    public static long[] localEntries(HazelcastInstance hazelcast, String mapName, int[] partitionIds) {
        MapService mapService = nodeEngine(hazelcast).getService(MapService.SERVICE_NAME);
        MapServiceContext context = mapService.getMapServiceContext();
        long[] entries = new long[partitionIds.length];
        for (int i = 0; i < partitionIds.length; i++) {
            RecordStore<?> store = context.getExistingRecordStore(partitionIds[i], mapName);
            entries[i] = store == null ? 0 : store.size();
        }
        return entries;
    }

    /** The members holding replicas 1..{@code backups} of the partition, in replica order; absent ones skipped. */
    public static List<UUID> backupReplicas(HazelcastInstance hazelcast, int partitionId, int backups) {
        InternalPartition partition = nodeEngine(hazelcast).getPartitionService().getPartition(partitionId, false);
        List<UUID> replicas = new ArrayList<>(backups);
        for (int index = 1; index <= backups; index++) {
            PartitionReplica replica = partition.getReplica(index);
            if (replica != null) {
                replicas.add(replica.uuid());
            }
        }
        return replicas;
    }

    /** The owner of the partition as this member's table says, without triggering the first assignment. */
    public static UUID ownerOrNull(HazelcastInstance hazelcast, int partitionId) {
        PartitionReplica owner = nodeEngine(hazelcast).getPartitionService().getPartition(partitionId, false)
                .getOwnerReplicaOrNull();
        return owner == null ? null : owner.uuid();
    }

    /**
     * Whether the calling thread is inside {@code LifecycleService.terminate()} (a crash, as tests and the
     * stuck-migration watchdog cause it), as opposed to a graceful {@code shutdown()}: both fire {@code SHUTTING_DOWN}
     * on the caller's thread, and only the event's listeners can tell them apart, by the frames below them.
     */
    static boolean terminating() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame ->
                frame.getMethodName().equals("terminate") && frame.getClassName().endsWith("LifecycleServiceImpl")));
    }

    /** The member list version {@code member} joined at, the same on every member (lower is older); -1 if unknown. */
    static int joinVersion(Member member) {
        return member instanceof MemberImpl impl ? impl.getMemberListJoinVersion() : -1;
    }
}
