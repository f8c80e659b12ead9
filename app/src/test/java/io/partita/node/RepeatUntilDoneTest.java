package io.partita.node;

import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.spi.exception.RetryableHazelcastException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A start-up step (creating map proxies, a new cluster's partition sentinels) that meets a slow backup or a cluster
 * still below its split-brain protection is run again rather than failing the member's start; other failures, and an
 * indeterminate state that never clears, still fail it.
 */
class RepeatUntilDoneTest {

    @Test
    void shouldRunAStepAgainUntilItCompletesWhenBackupsAreSlowOrTooFewMembersHaveJoined() {
        AtomicInteger runs = new AtomicInteger();
        Members.repeatUntilDone(() -> {
            switch (runs.incrementAndGet()) {
                case 1 -> throw new IndeterminateOperationStateException("backup did not acknowledge");
                case 2 -> throw new RetryableHazelcastException("partition migrating");
                case 3 -> throw new SplitBrainProtectionException("not enough members yet");
                default -> { }
            }
        });
        assertEquals(4, runs.get());
    }

    @Test
    void shouldFailTheStartWhenTheIndeterminateStateNeverClears() {
        AtomicInteger runs = new AtomicInteger();
        IndeterminateOperationStateException stuck = new IndeterminateOperationStateException("never acknowledged");
        assertSame(stuck, assertThrows(IndeterminateOperationStateException.class, () -> Members.repeatUntilDone(() -> {
            runs.incrementAndGet();
            throw stuck;
        })));
        assertEquals(50, runs.get());
    }

    @Test
    void shouldNotRepeatAStepThatFailsForAnotherReason() {
        AtomicInteger runs = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> Members.repeatUntilDone(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("bad configuration");
        }));
        assertEquals(1, runs.get());
    }
}
