package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;
import io.micronaut.core.async.publisher.Publishers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Readiness of this node: UP once its member runs, the cluster has at least {@code partita.min-cluster-size} members,
 * and the cluster is safe (no partition is without its backup, no migration is in flight). A load balancer or
 * Kubernetes sends traffic only then, and a rolling restart waits for it before stopping the next node.
 */
@Singleton
@Readiness
class MemberReadiness implements HealthIndicator {

    private final HazelcastInstance hazelcast;
    private final int minClusterSize;

    MemberReadiness(HazelcastInstance hazelcast, PartitaProperties properties) {
        this.hazelcast = hazelcast;
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
            boolean safe = hazelcast.getPartitionService().isClusterSafe();
            details.put("members", members);
            details.put("minClusterSize", minClusterSize);
            details.put("clusterSafe", safe);
            up = members >= minClusterSize && safe;
        }
        return HealthResult.builder("hazelcast", up ? HealthStatus.UP : HealthStatus.DOWN).details(details).build();
    }
}
