package io.partita.web;

import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.core.OperationTimeoutException;
import com.hazelcast.spi.exception.RetryableException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Turns what the grid throws into what a client can act on. Everything transient (a member leaving, a migration, a
 * backup that did not confirm, the node shutting down) becomes a 503 with {@code Retry-After}: retrying with the same
 * transaction id is always safe, because the duplicate check answers a request that did land with its first answer.
 */
public final class Failures {

    static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private Failures() {
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null && !(current instanceof MemberLeftException)) {
            current = current.getCause();
        }
        return current;
    }

    /** The API's answer to {@code failure}: an {@link ApiException} as it is, a transient failure as a 503. */
    public static RuntimeException translate(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof ApiException api) {
            return api;
        }
        if (cause instanceof IndeterminateOperationStateException) {
            return ApiException.unavailable("The write was not confirmed by its backup, so it may or may not have "
                    + "been applied. Retry with the same id to learn which.", RETRY_AFTER);
        }
        if (cause instanceof SplitBrainProtectionException) {
            return ApiException.unavailable("This member is cut off from the majority of the cluster. Retry with the "
                    + "same id, here later or on another member.", RETRY_AFTER);
        }
        if (cause instanceof TimeoutException) {
            return ApiException.unavailable("The member that holds the data did not answer in time, so the write may "
                    + "or may not have been applied. Retry with the same id to learn which.", RETRY_AFTER);
        }
        if (isTransient(cause)) {
            return ApiException.unavailable("The cluster is rebalancing or a member is leaving. Retry with the same id.",
                    RETRY_AFTER);
        }
        return cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }

    private static boolean isTransient(Throwable cause) {
        return cause instanceof RetryableException
                || cause instanceof MemberLeftException
                || cause instanceof HazelcastInstanceNotActiveException
                || cause instanceof OperationTimeoutException
                || cause instanceof HazelcastException && cause.getCause() instanceof RetryableException;
    }
}
