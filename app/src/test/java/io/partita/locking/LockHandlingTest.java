package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPSubsystem;
import com.hazelcast.cp.exception.CPGroupDestroyedException;
import com.hazelcast.cp.lock.FencedLock;
import com.hazelcast.cp.lock.exception.LockOwnershipLostException;
import io.partita.support.TestProperties;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * How locks are taken and given back when the CP Subsystem misbehaves, against stand-in locks: an unlock that fails is
 * tried again a bounded number of times, and a proxy whose CP group was destroyed is replaced.
 */
class LockHandlingTest {

    /** A FencedLock whose lock and unlock do what the test says, counting unlock calls. */
    private static FencedLock lock(LongSupplier tryLock, Runnable unlock, AtomicInteger unlocks) {
        return (FencedLock) Proxy.newProxyInstance(FencedLock.class.getClassLoader(),
                new Class<?>[]{FencedLock.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "tryLockAndGetFence" -> tryLock.getAsLong();
                    case "unlock" -> {
                        unlocks.incrementAndGet();
                        unlock.run();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "lock";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Held.Taken taken(Runnable unlock, AtomicInteger unlocks) {
        return new Held.Taken("a-1", lock(() -> 1, unlock, unlocks), 1);
    }

    /** Releases one lock whose unlock does {@code unlock}, given the calls so far; answers how many calls it took. */
    private static int unlockCalls(IntConsumer unlock) {
        AtomicInteger unlocks = new AtomicInteger();
        Held.release(List.of(taken(() -> unlock.accept(unlocks.get()), unlocks)));
        return unlocks.get();
    }

    @Test
    void shouldTryAFailedUnlockAgainUntilItSucceeds() {
        int calls = unlockCalls(calledSoFar -> {
            if (calledSoFar < 3) {
                throw new IllegalStateException("no leader right now");
            }
        });

        assertEquals(3, calls);
    }

    @Test
    void shouldGiveUpOnAnUnlockAfterABoundedNumberOfAttemptsAndReleaseTheOthers() {
        AtomicInteger failing = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        Held.release(List.of(taken(() -> { }, other), taken(() -> {
            throw new IllegalStateException("no leader");
        }, failing)));

        assertEquals(Held.UNLOCK_ATTEMPTS, failing.get());
        assertEquals(1, other.get());
    }

    @Test
    void shouldNotRetryAnUnlockOfALockWhoseSessionExpired() {
        int calls = unlockCalls(calledSoFar -> {
            throw new LockOwnershipLostException("session gone");
        });

        assertEquals(1, calls);
    }

    @Test
    void shouldReplaceAProxyWhoseCpGroupWasDestroyedAndTakeTheLockThroughTheNewOne() {
        AtomicInteger unlocks = new AtomicInteger();
        FencedLock destroyed = lock(() -> {
            throw new CPGroupDestroyedException();
        }, () -> { }, unlocks);
        FencedLock fresh = lock(() -> 7, () -> { }, unlocks);
        List<FencedLock> served = new ArrayList<>(List.of(destroyed, fresh));
        AccountLocks locks = new AccountLocks(member(cp(served)), TestProperties.tcp("c", 5701, List.of(), 0));
        locks.proxy("a-1");

        try (Held held = locks.lock("a-1")) {
            assertEquals(7, held.fence("a-1"));
        }

        assertSame(fresh, locks.proxy("a-1"));
        assertEquals(1, unlocks.get());
    }

    /** A CP Subsystem that hands out the given lock proxies, one per getLock call. */
    private static CPSubsystem cp(List<FencedLock> served) {
        return (CPSubsystem) Proxy.newProxyInstance(CPSubsystem.class.getClassLoader(),
                new Class<?>[]{CPSubsystem.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getLock")) {
                        return served.remove(0);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A member that offers only {@code cp}; its maps are never used here. */
    private static HazelcastInstance member(CPSubsystem cp) {
        return (HazelcastInstance) Proxy.newProxyInstance(HazelcastInstance.class.getClassLoader(),
                new Class<?>[]{HazelcastInstance.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getCPSubsystem" -> cp;
                    case "getMap" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
