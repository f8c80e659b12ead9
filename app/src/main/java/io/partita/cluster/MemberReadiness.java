package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Readiness;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Readiness of this node: UP once its member runs, the cluster has the members this node needs (at least
 * {@code partita.min-cluster-size}, and at least {@code partita.split-brain-protection}, below which it would answer
 * 503 to every ledger call anyway), and the cluster is safe (no partition is without its backup, no migration is in
 * flight). A load balancer or Kubernetes sends traffic only then, and a rolling restart waits for it before stopping
 * the next node.
 *
 * <p>Threads: asking whether the cluster is safe is a round trip to every member, and a paused member can hold it
 * until it is removed (the heartbeat timeout). So the question runs on the blocking pool, never on the event loop
 * that serves the probe, with at most one evaluation under way at a time; a probe that finds no answer within
 * {@link #ANSWER_WITHIN_MILLIS} reports DOWN (the cluster did not answer), and the next probe reads the evaluation
 * still under way.
 */
@Singleton
@Readiness
class MemberReadiness implements HealthIndicator {

    static final long ANSWER_WITHIN_MILLIS = 2_000;

    private final HazelcastInstance hazelcast;
    private final int minClusterSize;
    private final int requiredMembers;
    private final ExecutorService blocking;
    private final AtomicReference<CompletableFuture<HealthResult>> evaluation = new AtomicReference<>();

    MemberReadiness(HazelcastInstance hazelcast, PartitaProperties properties,
                    @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.hazelcast = hazelcast;
        this.minClusterSize = properties.minClusterSize();
        this.requiredMembers = Math.max(properties.minClusterSize(), properties.splitBrainProtection());
        this.blocking = blocking;
    }

    @Override
    public Publisher<HealthResult> getResult() {
        CompletableFuture<HealthResult> current = evaluation.get();
        if (current == null || current.isDone()) {
            CompletableFuture<HealthResult> next = new CompletableFuture<>();
            if (evaluation.compareAndSet(current, next)) {
                blocking.execute(() -> {
                    try {
                        next.complete(check());
                    } catch (RuntimeException e) {
                        next.complete(result(false, Map.of("error", "the cluster could not be asked")));
                    }
                });
            }
            current = evaluation.get();
        }
        return Publishers.fromCompletableFuture(current.copy().completeOnTimeout(
                result(false, Map.of("clusterSafe", "no answer within " + ANSWER_WITHIN_MILLIS + " ms")),
                ANSWER_WITHIN_MILLIS, TimeUnit.MILLISECONDS));
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
            details.put("requiredMembers", requiredMembers);
            details.put("clusterSafe", safe);
            up = members >= requiredMembers && safe;
        }
        return result(up, details);
    }

    private static HealthResult result(boolean up, Map<String, Object> details) {
        return HealthResult.builder("hazelcast", up ? HealthStatus.UP : HealthStatus.DOWN).details(details).build();
    }
}
