package io.partita.locking;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPSubsystem;
import com.hazelcast.cp.exception.CPGroupDestroyedException;
import com.hazelcast.cp.lock.FencedLock;
import com.hazelcast.cp.lock.exception.LockOwnershipLostException;
import io.partita.node.PartitaProperties;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * The FencedLock of each account, and taking several of them without deadlock: always in the order of their account
 * ids, the wait for all of them bounded by {@code partita.cp.lock-timeout} and by the request's deadline (a timeout
 * releases what was taken and answers 503, nothing changed).
 *
 * <b>Threads:</b> taking and releasing a lock is a blocking call from the calling thread (the blocking executor's
 * tasks, transfer coordinators), and the lock belongs to that thread and to this member's CP session, so {@link
 * Held#close()} must run on the thread that called {@link #lock(Deadline, String...)}. Those threads share the bean:
 * its proxy cache is a concurrent map, and whether the CP Subsystem formed is a volatile flag.
 */
@Singleton
public class AccountLocks {

    /*
     * Order
     *
     * Several locks are always taken in the order of their account ids: two transfers in opposite directions then queue
     * on the same first lock instead of each holding the lock the other waits for. A lock lives in the CP Subsystem
     * (the Raft group "default" with CP members, ordinary partitions in unsafe mode).
     *
     * Leaderless waits
     *
     * A lock call cannot be interrupted: while the CP group has no leader, Hazelcast retries it for up to about two
     * minutes before it fails. The client has its 503 at the deadline meanwhile (the caller stops waiting), and a lock
     * granted after the deadline is released at once, so a request that was answered never writes afterwards.
     *
     * Proxies
     *
     * getLock(name) resolves the lock's CP group with a round trip, so proxies are cached, at most MAX_PROXIES of them
     * (an arbitrary one is dropped beyond that; a proxy is a handle, the lock's state lives in the CP group, and a held
     * lock keeps the proxy it was taken with). A proxy whose CP group was destroyed (a CP Subsystem reset creates the
     * group anew) is dropped and fetched again, once per lock call.
     */

    static final int MAX_PROXIES = 10_000;
    /** CP object names may not contain '@' (it names a CP group); account ids never do. */
    static final String NAME_PREFIX = "account/";

    private final CPSubsystem cp;
    private final FencedWrites writes;
    private final Duration timeout;
    private final Duration requestTimeout;
    private final int cpMembers;
    private final ConcurrentMap<String, FencedLock> proxies = new ConcurrentHashMap<>();
    /** Whether the CP Subsystem formed; once true it stays true, so a race only asks Hazelcast once more. */
    private volatile boolean formed;

    AccountLocks(HazelcastInstance hazelcast, PartitaProperties properties) {
        this.cp = hazelcast.getCPSubsystem();
        this.writes = new FencedWrites(hazelcast);
        this.timeout = properties.cp().lockTimeout();
        this.requestTimeout = properties.requestTimeout();
        this.cpMembers = properties.cp().members();
        this.formed = cpMembers == 0;
    }

    /** Takes the locks of the given accounts for a request arriving now; see {@link #lock(Deadline, String...)}. */
    public Held lock(String... accountIds) {
        return lock(Deadline.after(requestTimeout), accountIds);
    }

    /**
     * Takes the locks of the given accounts, in order of id, waiting at most the lock timeout for all of them and
     * never past {@code deadline}. The returned holder's writes are bounded by the same deadline.
     *
     * @throws Refusal 503 when a lock is not free in time or the deadline passed; the locks taken so far are
     *                      released and nothing was changed
     */
    public Held lock(Deadline deadline, String... accountIds) {
        requireFormed();
        List<String> ordered = Arrays.stream(accountIds).distinct().sorted().toList();
        long lockDeadline = System.nanoTime() + timeout.toNanos();
        List<Held.Taken> taken = new ArrayList<>(ordered.size());
        try {
            for (String accountId : ordered) {
                deadline.check();
                long wait = Math.max(0, Math.min(lockDeadline - System.nanoTime(), deadline.remainingNanos()));
                Held.Taken lock = tryLock(accountId, wait);
                if (lock == null) {
                    throw Refusal.unavailable("Account '" + accountId + "' is locked by another request; nothing "
                            + "was changed. Retry with the same id.", FencedWrites.RETRY_AFTER);
                }
                taken.add(lock);
            }
            // Granted late (a lock call retried while the CP group elected a leader): the client may have its 503.
            deadline.check();
        } catch (RuntimeException e) {
            Held.release(taken);
            throw e;
        }
        return new Held(taken, writes, deadline);
    }

    /**
     * Raft mode needs {@code partita.cp.members} members before any lock exists; until then (the first nodes of a
     * cluster starting) a lock call would wait for the CP Subsystem instead of the lock, so it is answered at once.
     */
    private void requireFormed() {
        if (!formed && !(formed = cp.getCPSubsystemManagementService().isDiscoveryCompleted())) {
            throw Refusal.unavailable("Locked mode is not available yet: the CP Subsystem is waiting for "
                    + cpMembers + " members to form. Retry with the same id, or use mode=partitioned.",
                    FencedWrites.RETRY_AFTER);
        }
    }

    /** The lock with its fence, or null when it was not free within {@code waitNanos}. */
    private Held.Taken tryLock(String accountId, long waitNanos) {
        FencedLock lock = proxy(accountId);
        long fence;
        try {
            fence = tryLock(lock, accountId, waitNanos);
        } catch (CPGroupDestroyedException e) {
            // The cached proxy names a CP group that no longer exists (a CP reset); a fresh one names the new group.
            proxies.remove(accountId, lock);
            lock = proxy(accountId);
            fence = tryLock(lock, accountId, waitNanos);
        }
        return fence == FencedLock.INVALID_FENCE ? null : new Held.Taken(accountId, lock, fence);
    }

    private static long tryLock(FencedLock lock, String accountId, long waitNanos) {
        try {
            return lock.tryLockAndGetFence(waitNanos, TimeUnit.NANOSECONDS);
        } catch (LockOwnershipLostException e) {
            // This thread held the lock before, lost its session, and its unlock could not tell the CP group.
            throw Refusal.unavailable("The lock of account '" + accountId + "' was lost; nothing was changed. "
                    + "Retry with the same id.", FencedWrites.RETRY_AFTER);
        }
    }

    FencedLock proxy(String accountId) {
        FencedLock lock = proxies.get(accountId);
        if (lock != null) {
            return lock;
        }
        if (proxies.size() >= MAX_PROXIES) {
            Iterator<String> any = proxies.keySet().iterator();
            if (any.hasNext()) {
                proxies.remove(any.next());
            }
        }
        // Not inside computeIfAbsent: while the CP Subsystem has no leader, getLock waits for the group, and it would
        // hold the map's bin meanwhile, stalling other accounts that hash there. Two proxies of one name are alike.
        FencedLock created = cp.getLock(lockName(accountId));
        FencedLock raced = proxies.putIfAbsent(accountId, created);
        return raced == null ? created : raced;
    }

    /** The name of an account's FencedLock in the CP Subsystem. */
    public static String lockName(String accountId) {
        return NAME_PREFIX + accountId;
    }

    boolean hasProxy(String accountId) {
        return proxies.containsKey(accountId);
    }
}
