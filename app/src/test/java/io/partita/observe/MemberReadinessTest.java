package io.partita.observe;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.partita.node.PartitaProperties;
import io.partita.support.TestCluster;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Readiness counts the members split-brain protection needs (a majority of {@code partita.cluster-size}: 2 of 3),
 * beside the cluster's last known safety.
 */
class MemberReadinessTest {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldReportDownWhenFewerMembersRemainThanSplitBrainProtectionNeeds() {
        try (TestCluster cluster = TestCluster.start(2)) {
            cluster.awaitSafe();
            PartitaProperties base = cluster.properties(0);
            PartitaProperties meantForThree = new PartitaProperties(base.clusterName(), base.discovery(),
                    base.members(), base.kubernetes(), base.network(), 1, base.heartbeatTimeout(), base.httpUrl(),
                    base.cp(), base.processing(), base.journal(), base.transfers(), base.requestTimeout(), 0, 3, 1,
                    TestProperties.NO_GROUPS);
            assertEquals(2, meantForThree.requiredMembers());
            ClusterSafety safety = new ClusterSafety(cluster.member(0));
            MemberReadiness readiness = new MemberReadiness(cluster.member(0), meantForThree, safety);

            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.UP);

            cluster.shutdown(cluster.member(1));
            cluster.awaitSize(1);

            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.DOWN);
            Map<?, ?> details = (Map<?, ?>) result(readiness).getDetails();
            assertEquals(1, details.get("members"));
            assertEquals(2, details.get("requiredMembers"));
            safety.stop();
        }
    }

    private static HealthResult result(MemberReadiness readiness) {
        return first(readiness.getResult()).orTimeout(10, TimeUnit.SECONDS).join();
    }

    private static <T> CompletableFuture<T> first(Publisher<T> publisher) {
        CompletableFuture<T> first = new CompletableFuture<>();
        publisher.subscribe(new Subscriber<>() {
            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(1);
            }

            @Override
            public void onNext(T item) {
                first.complete(item);
            }

            @Override
            public void onError(Throwable failure) {
                first.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
                first.completeExceptionally(new IllegalStateException("no result"));
            }
        });
        return first;
    }
}
