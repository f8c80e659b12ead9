package io.partita.observe;

import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A question about the cluster's safety that never comes back (sent to a member at the moment it crashed, Hazelcast
 * can hold it for a minute or more) does not hold the answer: the cluster is reported unsafe while it is late, and safe
 * once a later question says so.
 */
class ClusterSafetyTest {

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void shouldAskAgainWhenAQuestionHangs() {
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger asked = new AtomicInteger();
        try (TestCluster cluster = TestCluster.start(1)) {
            ClusterSafety safety = new ClusterSafety(cluster.member(0), () -> {
                if (asked.incrementAndGet() == 1) {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return true;
            });
            try {
                assertFalse(safety.isSafe(), "no answer yet");
                await().atMost(Duration.ofSeconds(20)).until(safety::isSafe);
            } finally {
                never.countDown();
                safety.stop();
            }
        }
    }
}
