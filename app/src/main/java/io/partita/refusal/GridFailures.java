package io.partita.refusal;

import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.core.OperationTimeoutException;
import com.hazelcast.cp.exception.CPGroupDestroyedException;
import com.hazelcast.cp.exception.CPSubsystemException;
import com.hazelcast.cp.internal.datastructures.exception.WaitKeyCancelledException;
import com.hazelcast.cp.internal.session.SessionExpiredException;
import com.hazelcast.cp.lock.exception.LockOwnershipLostException;
import com.hazelcast.spi.exception.RetryableException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Turns what the grid throws into a {@link Refusal} a client can act on. Everything transient (a member leaving, a
 * migration, a backup that did not confirm, the node shutting down) becomes {@link Refusal.Kind#UNAVAILABLE} with a
 * time to retry after: retrying with the same
 * transaction id is always safe, because the duplicate check answers a request that did land with its first answer.
 * So is every failure of the CP Subsystem behind locked mode (a lock whose session expired, a wait cancelled, a
 * group without a leader or destroyed by a reset): a write under a lost lock is refused by its fence, and the rest
 * changes nothing. No answer names a class: the detail says what happened and what to do.
 */
public final class GridFailures {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private GridFailures() {
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null && !(current instanceof MemberLeftException)) {
            current = current.getCause();
        }
        return current;
    }

    /** What {@code failure} comes to: a {@link Refusal} as it is, a transient failure as unavailable. */
    public static RuntimeException translate(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof Refusal refusal) {
            return refusal;
        }
        if (cause instanceof IndeterminateOperationStateException) {
            return Refusal.unavailable("The write was not confirmed by its backup, so it may or may not have "
                    + "been applied. Retry with the same id to learn which.", RETRY_AFTER);
        }
        RuntimeException cp = translateCp(cause);
        if (cp != null) {
            return cp;
        }
        if (cause instanceof SplitBrainProtectionException) {
            return cutOff();
        }
        if (cause instanceof TimeoutException) {
            return Refusal.unavailable("The member that holds the data did not answer in time, so the write may "
                    + "or may not have been applied. Retry with the same id to learn which.", RETRY_AFTER);
        }
        if (cause instanceof HazelcastInstanceNotActiveException) {
            return memberStopped();
        }
        if (isTransient(cause)) {
            return Refusal.unavailable("The cluster is rebalancing or a member is leaving. Retry with the same "
                    + "id.", RETRY_AFTER);
        }
        return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }

    /** {@code call}'s result, with a grid failure translated as {@link #translate} does: for blocking callers. */
    public static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw translate(e);
        }
    }

    /** This member does not hear from a majority of the cluster: whatever it was asked, it does not answer. */
    public static Refusal cutOff() {
        return Refusal.unavailable("This member is cut off from the majority of the cluster. Retry with the "
                + "same id, here later or on another member.", RETRY_AFTER);
    }

    /** Failures of the CP Subsystem (FencedLock), as unavailable; null for anything else. */
    /** What a call to a node whose grid member has stopped (its graceful stop has begun, or it failed) is answered. */
    public static Refusal memberStopped() {
        return Refusal.unavailable("This node's member has stopped (the node is shutting down). Retry with the "
                + "same id on another node: a write that did land is answered as it was.", RETRY_AFTER);
    }

    private static RuntimeException translateCp(Throwable cause) {
        if (cause instanceof LockOwnershipLostException || cause instanceof SessionExpiredException) {
            return Refusal.unavailable("The account's lock was lost before the request finished (its CP session "
                    + "expired), and a write under a lost lock is refused. Retry with the same id.", RETRY_AFTER);
        }
        if (cause instanceof WaitKeyCancelledException) {
            return Refusal.unavailable("The wait for the account's lock was cancelled and nothing was changed. "
                    + "Retry with the same id.", RETRY_AFTER);
        }
        if (cause instanceof CPGroupDestroyedException) {
            return Refusal.unavailable("The CP Subsystem group that holds the locks was reset. Retry with the "
                    + "same id, or use mode=partitioned.", RETRY_AFTER);
        }
        if (cause instanceof CPSubsystemException) {
            return Refusal.unavailable("The CP Subsystem that holds the locks is not available right now (it is "
                    + "electing a leader or changing members). Retry with the same id, or use mode=partitioned.",
                    RETRY_AFTER);
        }
        return null;
    }

    private static boolean isTransient(Throwable cause) {
        return cause instanceof RetryableException
                || cause instanceof MemberLeftException
                || cause instanceof HazelcastInstanceNotActiveException
                || cause instanceof OperationTimeoutException
                || cause instanceof HazelcastException && cause.getCause() instanceof RetryableException;
    }
}
