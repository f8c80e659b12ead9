package io.partita.client;

import java.net.URI;

/**
 * What the client did, for metrics: set one with {@link PartitaClient.Builder#listener}. Every method has an empty
 * default, so a listener overrides only what it records. The client has no metrics library of its own; the README
 * ("Submit work from Java") shows a listener that records into Micrometer.
 *
 * <p>Threads: called on the thread that finished the work (the caller's for a sync call, the client's executor for
 * async and gathered calls and for table reads), many at once; a listener must be thread-safe and quick. An exception
 * it throws is ignored, never passed to the call.
 *
 * <p>{@code operation} names the kind of call, never an id, so it can be a metric tag: {@code transaction},
 * {@code transfer}, {@code batch}, {@code open-account}, {@code account}, {@code journal}, {@code start-job},
 * {@code job}, {@code create-lease-group}, {@code join-lease-group}, {@code renew-lease}, {@code leave-lease-group},
 * {@code check-fence}.
 */
public interface ClientListener {

    /** How a call ended. */
    enum Outcome {
        /** A 2xx answer: done (a batch is OK as a whole, whatever its items' answers). */
        OK,
        /** A recorded rejection (422 {@code REJECTED}): returned as a result, e.g. {@link TxResult#rejected()}. */
        REJECTED,
        /**
         * A definite refusal, thrown as a {@link PartitaException} (not found, txId reused, partition lost, ...), or an
         * answer the client could not read ({@link UnreadableAnswerException}).
         */
        REFUSED,
        /** No definite answer within the retry budget: {@link OutcomeUnknownException}. */
        UNKNOWN
    }

    /**
     * A call ended, after all its retries.
     *
     * @param node     the node that gave the last answer (or failed the last attempt)
     * @param attempts how many sends it took (1: no retry)
     * @param nanos    from the call to its end, retries and (when gathering) the wait for its batch included
     */
    default void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
    }

    /**
     * An attempt left the outcome unknown and the call will be sent again after {@code waitNanos}.
     *
     * @param attempt the attempt that failed (1: the first send)
     * @param status  the answer's HTTP status (429, 502, 503, 504, or the status of a batch item), or 0 when no answer
     *                came (a connection error or a timeout)
     */
    default void onRetry(String operation, URI node, int attempt, int status, long waitNanos) {
    }

    /**
     * The partition table was read ({@code GET /cluster} and {@code /cluster/partitions}).
     *
     * @param node the node that answered, or null when none could
     * @param ok   whether a table was read; if not, calls go to any node until the next read
     */
    default void onRefresh(URI node, boolean ok, long nanos) {
    }

    /**
     * Gathered single calls went to {@code node} as one {@code POST /transactions/batch} of {@code items} (only with
     * {@link PartitaClient.Builder#coalesce}); each call is still reported by its own {@link #onCall}.
     */
    default void onCoalesced(URI node, int items) {
    }

    /** The listener that records nothing. */
    ClientListener NONE = new ClientListener() {
    };
}
