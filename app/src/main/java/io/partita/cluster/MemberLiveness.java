package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

import java.util.Map;

/**
 * Liveness of this node: DOWN once its member has stopped (refused by the cluster for a configuration mismatch, or
 * shut down after a split it could not merge). The HTTP server alone is no use then; a supervisor should restart it.
 */
@Singleton
@Liveness
class MemberLiveness implements HealthIndicator {

    private final HazelcastInstance hazelcast;

    MemberLiveness(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        boolean running = hazelcast.getLifecycleService().isRunning();
        return Publishers.just(HealthResult.builder("hazelcast", running ? HealthStatus.UP : HealthStatus.DOWN)
                .details(Map.of("running", running))
                .build());
    }
}
