package io.partita.support;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;

/**
 * The extension applies to a test class that never touches the classes that start members: a thread dying of an
 * uncaught exception while an await runs does not fail the await ({@link QuietMemberThreads}).
 */
class QuietMemberThreadsTest {

    @Test
    void shouldAwaitItsConditionWhileAnotherThreadDiesOfAnUncaughtException() throws InterruptedException {
        AtomicBoolean done = new AtomicBoolean();
        Thread dying = new Thread(() -> {
            done.set(true);
            throw new IllegalStateException("a member's thread dies (expected by this test)");
        }, "quiet-member-threads-test");
        await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofMillis(200)).until(() -> {
            if (!dying.isAlive() && !done.get()) {
                dying.start();
            }
            return done.get() && !dying.isAlive();
        });
    }
}
