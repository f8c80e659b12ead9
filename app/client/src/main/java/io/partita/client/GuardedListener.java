package io.partita.client;

import java.net.URI;

/** The user's {@link ClientListener}, with anything it throws dropped: a metric must never fail a call. */
final class GuardedListener implements ClientListener {

    private final ClientListener listener;

    GuardedListener(ClientListener listener) {
        this.listener = listener;
    }

    @Override
    public void onCall(String operation, URI node, int attempts, long nanos, Outcome outcome) {
        try {
            listener.onCall(operation, node, attempts, nanos, outcome);
        } catch (RuntimeException e) {
            // The listener's own fault: ignored.
        }
    }

    @Override
    public void onRetry(String operation, URI node, int attempt, int status, long waitNanos) {
        try {
            listener.onRetry(operation, node, attempt, status, waitNanos);
        } catch (RuntimeException e) {
            // The listener's own fault: ignored.
        }
    }

    @Override
    public void onRefresh(URI node, boolean ok, long nanos) {
        try {
            listener.onRefresh(node, ok, nanos);
        } catch (RuntimeException e) {
            // The listener's own fault: ignored.
        }
    }

    @Override
    public void onCoalesced(URI node, int items) {
        try {
            listener.onCoalesced(node, items);
        } catch (RuntimeException e) {
            // The listener's own fault: ignored.
        }
    }
}
