package io.partita.observe;

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
 * Liveness of this node: DOWN once its member has stopped (shut down, or terminated after it could not rejoin).
 * A node without a member can serve nothing, so a supervisor should restart it; a member that merely waits for the
 * cluster to become safe is alive, which {@link MemberReadiness} reports instead.
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
        return Publishers.just(HealthResult.builder("hazelcast-member", running ? HealthStatus.UP : HealthStatus.DOWN)
                .details(Map.of("running", running))
                .build());
    }
}
