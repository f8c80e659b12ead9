package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.partita.node.MembershipNotice;
import io.partita.node.PartitaProperties;
import io.partita.support.TestCluster;
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
 * Readiness follows split-brain protection as it runs with no settings: a member that hears from no majority of the
 * cluster it last saw whole (two of three crashed, which it cannot tell from a network split) reports DOWN, and UP
 * again once an admin declares the missing members gone; members that leave gracefully never take it down.
 */
class MemberReadinessTest {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldReportDownWhenThisMemberHearsFromNoMajorityAndUpOnceTheMissingAreDeclaredGone() {
        try (TestCluster cluster = TestCluster.start(3)) {
            HazelcastInstance survivor = cluster.member(0);
            ClusterSafety safety = new ClusterSafety(survivor);
            MemberReadiness readiness = new MemberReadiness(survivor, cluster.properties(0), safety);
            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.UP);

            cluster.terminate(cluster.member(2));
            cluster.terminate(cluster.member(1));
            cluster.awaitSize(1);

            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.DOWN);
            Map<?, ?> details = (Map<?, ?>) result(readiness).getDetails();
            assertEquals(1, details.get("members"));
            assertEquals(3, details.get("expectedMembers"));
            assertEquals(false, details.get("majorityHeardFrom"));

            MembershipNotice.forgetMissing(survivor, "test");
            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.UP);
            assertEquals(1, ((Map<?, ?>) result(readiness).getDetails()).get("expectedMembers"));
            safety.stop();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldStayUpWhileMembersLeaveGracefullyOneAfterAnother() {
        try (TestCluster cluster = TestCluster.start(3)) {
            HazelcastInstance last = cluster.member(2);
            PartitaProperties properties = cluster.properties(0);
            ClusterSafety safety = new ClusterSafety(last);
            MemberReadiness readiness = new MemberReadiness(last, properties, safety);
            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.UP);

            cluster.shutdown(cluster.member(0));
            cluster.awaitSize(2);
            cluster.shutdown(cluster.member(0));
            cluster.awaitSize(1);

            await().atMost(Duration.ofSeconds(30)).until(() -> result(readiness).getStatus() == HealthStatus.UP);
            Map<?, ?> details = (Map<?, ?>) result(readiness).getDetails();
            assertEquals(1, details.get("expectedMembers"), "both left gracefully: the cluster is whole with one");
            assertEquals(true, details.get("majorityHeardFrom"));
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
