package io.partita.client;

import java.net.URI;

/** The user's {@link ClientListener}, with anything it throws dropped: a metric must never fail a call. */
final class GuardedListener implements ClientListener {

    private final ClientListener listener;

    GuardedListener(ClientListener listener) {
        this.listener = listener;
    }

    private static void quietly(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            // The listener's own fault: ignored.
        }
    }

    @Override
    public void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
        quietly(() -> listener.onCall(operation, node, attempts, nanos, outcome));
    }

    @Override
    public void onRetry(String operation, URI node, int attempt, int status, long waitNanos) {
        quietly(() -> listener.onRetry(operation, node, attempt, status, waitNanos));
    }

    @Override
    public void onRefresh(URI node, boolean ok, long nanos) {
        quietly(() -> listener.onRefresh(node, ok, nanos));
    }

    @Override
    public void onCoalesced(URI node, int items) {
        quietly(() -> listener.onCoalesced(node, items));
    }
}
