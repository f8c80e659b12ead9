package io.partita.transfer;

/**
 * Where a transfer stands. A transfer only moves forward (by {@link #rank()}), so two drivers of one transfer (its
 * coordinator and a recovery pass) can never take it back a step.
 *
 * <pre>
 * PENDING --debit applied--> DEBITED --credit applied--> COMPLETED
 *    |                          |
 *    +--debit rejected--> REJECTED <--refund applied-- REFUNDING <--credit rejected (balance limit)
 * </pre>
 */
public enum TransferState {
    /** Recorded; nothing applied yet. */
    PENDING(0),
    /** The source is debited; the destination is not credited yet. */
    DEBITED(1),
    /** The destination refused the credit (its balance limit); the source gets the amount back. */
    REFUNDING(2),
    COMPLETED(3),
    REJECTED(3);

    private final int rank;

    TransferState(int rank) {
        this.rank = rank;
    }

    int rank() {
        return rank;
    }

    public boolean terminal() {
        return rank == 3;
    }
}
