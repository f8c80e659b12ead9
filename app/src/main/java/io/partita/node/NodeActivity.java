package io.partita.node;

/**
 * What a node's member reports about the work its node did, for views that gather it from every member (the
 * dashboard's transactions per second per node). The node puts its implementation in the member's user context under
 * {@link #USER_CONTEXT_KEY}, where the member snapshot task finds it; a member with none reports zeros.
 * <b>Threads:</b> read on a thread of the {@code partita.views} executor while the node counts its work on its own
 * threads, so an implementation must be safe for concurrent readers and writers.
 */
public interface NodeActivity {

    String USER_CONTEXT_KEY = "partita.node-activity";

    /** Transactions this node has answered since it started. */
    long transactions();

    /** Transactions per second this node answered over the last few seconds. */
    double transactionsPerSecond();
}
