package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.partita.node.HazelcastConfigs;
import io.partita.node.HeapPressure;
import io.partita.node.Membership;
import io.partita.node.MemberDisk;
import io.partita.node.PartitaProperties;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Readiness of this node: UP once its member runs, the cluster has at least {@code partita.min-cluster-size} members,
 * this member hears from a majority of the cluster (split-brain protection; below it, it would answer 503 to every
 * ledger call anyway), and the cluster is safe (no partition is without its backup, no migration is in
 * flight). A load balancer or Kubernetes sends traffic only then, and a rolling restart waits for it before stopping
 * the next node.
 * It runs on the event loop that serves the probe and never waits there: the member list is local, and
 * whether the cluster is safe is the last answer {@link ClusterSafety} had (asking is a round trip to every member,
 * which a paused member would hold).
 */
@Singleton
@Readiness
class MemberReadiness implements HealthIndicator {

    private final HazelcastInstance hazelcast;
    private final ClusterSafety safety;
    private final int minClusterSize;

    MemberReadiness(HazelcastInstance hazelcast, PartitaProperties properties, ClusterSafety safety) {
        this.hazelcast = hazelcast;
        this.safety = safety;
        this.minClusterSize = properties.minClusterSize();
    }

    @Override
    public Publisher<HealthResult> getResult() {
        return Publishers.just(check());
    }

    private HealthResult check() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean running = hazelcast.getLifecycleService().isRunning();
        details.put("running", running);
        boolean up = false;
        if (running) {
            int members = hazelcast.getCluster().getMembers().size();
            boolean safe = safety.isSafe();
            boolean majority = HazelcastConfigs.majorityPresent(hazelcast);
            details.put("members", members);
            details.put("minClusterSize", minClusterSize);
            details.put("expectedMembers", Membership.of(hazelcast).view().expected());
            details.put("clusterSafe", safe);
            details.put("majorityHeardFrom", majority);
            boolean recovering = MemberDisk.of(hazelcast).recovering();
            details.put("recoveringFromDisk", recovering);
            // Reported, not a reason to be unready: the node still answers reads while it refuses new work.
            details.put("heapAfterLastCollection", Math.round(HeapPressure.jvm().afterLastCollection() * 100) / 100.0);
            details.put("liveHeap", Math.round(HeapPressure.jvm().live() * 100) / 100.0);
            details.put("refusingWorkForMemory", HeapPressure.jvm().pressed());
            up = members >= minClusterSize && safe && majority && !recovering;
        }
        return HealthResult.builder("hazelcast", up ? HealthStatus.UP : HealthStatus.DOWN).details(details).build();
    }
}
