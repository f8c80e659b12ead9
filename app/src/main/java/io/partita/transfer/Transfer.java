package io.partita.transfer;

import io.micronaut.core.annotation.Nullable;
import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;

import java.util.Objects;

/**
 * The value of the {@code transfers} map: a transfer, how far it got, and the answer it came to.
 *
 * <p>A transfer is three possible steps, each an ordinary transaction on one account whose txId is derived from the
 * transfer (so each is applied at most once, whoever runs it and however often): the debit of the source, the credit
 * of the destination, and, only if the destination refused the credit, the refund of the source. The derived ids
 * contain '/', which client ids never do, so they cannot collide with a client's transaction ids.
 *
 * @param at          epoch milliseconds when the transfer began, stamped by its coordinator; also the time of its
 *                    journal entries, so re-running a step gives the same entry
 * @param fromBalance the source's balance after the debit (or after the refund, or at the rejection)
 * @param toBalance   the destination's balance after the credit, or when it refused it; null until then, and when the
 *                    credit could not be recorded at all
 * @param reason      why a REFUNDING transfer is being returned, or why a REJECTED one was rejected: one of the
 *                    constants below
 * @param coordinator the uuid of the member that began the transfer; its removal triggers recovery at once
 */
public record Transfer(String txId, String from, String to, long amount, long at, TransferState state,
                       @Nullable Long fromBalance, @Nullable Long toBalance, @Nullable String reason,
                       String coordinator) {

    /** The debit would take the source below its overdraft limit; nothing moved. */
    static final String INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS";
    /** The credit would take the destination above the largest balance; the amount was returned to the source. */
    static final String BALANCE_LIMIT = "BALANCE_LIMIT";
    /**
     * A step's derived id is recorded on its account with another payload: an earlier transfer with this id, whose
     * record is gone, left it. Nothing moved (a refused credit was returned to the source).
     */
    static final String ID_CONFLICT = "ID_CONFLICT";
    /** The source account was gone when the debit ran; nothing moved. */
    static final String SOURCE_NOT_FOUND = "SOURCE_NOT_FOUND";
    /** The destination account was gone when the credit ran; the amount was returned to the source. */
    static final String DESTINATION_NOT_FOUND = "DESTINATION_NOT_FOUND";
    /**
     * The credit was refused and the refund could not be recorded either (its id is taken by another payload, or the
     * source is gone): the amount stays debited and needs an operator's correction. Logged as an error.
     */
    static final String REFUND_FAILED = "REFUND_FAILED";

    public Transfer {
        Objects.requireNonNull(txId, "txId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(coordinator, "coordinator");
    }

    static Transfer begin(TransferRequest request, long at, String coordinator) {
        return new Transfer(request.txId(), request.from(), request.to(), request.amount(), at,
                TransferState.PENDING, null, null, null, coordinator);
    }

    TransferKey key() {
        return new TransferKey(from, txId);
    }

    boolean samePayloadAs(TransferRequest request) {
        return to.equals(request.to()) && amount == request.amount();
    }

    /** The account the next step runs on: the source for the debit and the refund, the destination for the credit. */
    String stepAccount() {
        return state == TransferState.DEBITED ? to : from;
    }

    /** The next step's transaction. */
    TxRequest step() {
        return switch (state) {
            case PENDING -> debit();
            case DEBITED -> credit();
            case REFUNDING -> refund();
            default -> throw new IllegalStateException("A finished transfer has no next step: " + this);
        };
    }

    /**
     * The record once the next step answered {@code outcome}. A pure function, so every driver of the transfer (its
     * coordinator, a recovery pass, a client's retry) computes the same next record. Every outcome leads somewhere:
     * a step that cannot be recorded (its derived id taken by another payload, its account gone) rejects the
     * transfer before the debit, or returns the amount after it, so no transfer is stuck and none strands money
     * unless its refund cannot be recorded either ({@link #REFUND_FAILED}).
     */
    Transfer after(TxOutcome outcome) {
        JournalEntry entry = outcome.entry();
        boolean recorded = outcome.kind() == TxOutcome.Kind.RECORDED || outcome.kind() == TxOutcome.Kind.REPLAYED;
        boolean applied = recorded && entry.status() == TxStatus.APPLIED;
        boolean conflict = outcome.kind() == TxOutcome.Kind.CONFLICT;
        return switch (state) {
            case PENDING -> recorded
                    ? applied ? debited(entry.balanceAfter()) : rejected(entry.balanceAfter(), INSUFFICIENT_FUNDS)
                    : rejected(null, conflict ? ID_CONFLICT : SOURCE_NOT_FOUND);
            case DEBITED -> recorded
                    ? applied ? completed(entry.balanceAfter()) : refunding(entry.balanceAfter(), BALANCE_LIMIT)
                    : refunding(null, conflict ? ID_CONFLICT : DESTINATION_NOT_FOUND);
            // A refund is never refused for funds (TRANSFER_REFUND is not refusable): recorded means applied.
            case REFUNDING -> recorded
                    ? rejected(entry.balanceAfter(), reason == null ? BALANCE_LIMIT : reason)
                    : rejected(fromBalance, REFUND_FAILED);
            default -> throw new IllegalStateException("A finished transfer has no next step: " + this);
        };
    }

    TxRequest debit() {
        return new TxRequest("transfer-out/" + txId, TxType.TRANSFER_OUT, amount, at, to);
    }

    TxRequest credit() {
        return new TxRequest("transfer-in/" + from + "/" + txId, TxType.TRANSFER_IN, amount, at, from);
    }

    TxRequest refund() {
        return new TxRequest("transfer-refund/" + txId, TxType.TRANSFER_REFUND, amount, at, to);
    }

    Transfer debited(long sourceBalance) {
        return with(TransferState.DEBITED, sourceBalance, toBalance, null);
    }

    Transfer completed(long destinationBalance) {
        return with(TransferState.COMPLETED, fromBalance, destinationBalance, null);
    }

    /** The credit was refused for {@code why}; {@code destinationBalance} is null when no credit was recorded. */
    Transfer refunding(Long destinationBalance, String why) {
        return with(TransferState.REFUNDING, fromBalance, destinationBalance, why);
    }

    /** Rejected for {@code why}; {@code sourceBalance} is null when the source recorded nothing. */
    Transfer rejected(Long sourceBalance, String why) {
        return with(TransferState.REJECTED, sourceBalance, toBalance, why);
    }

    private Transfer with(TransferState next, Long source, Long destination, String why) {
        return new Transfer(txId, from, to, amount, at, next, source, destination, why, coordinator);
    }
}
