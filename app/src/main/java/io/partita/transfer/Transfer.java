package io.partita.transfer;

import io.micronaut.core.annotation.Nullable;
import io.partita.account.TxRequest;
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
 * @param toBalance   the destination's balance after the credit, or when it refused it; null until then
 * @param reason      why a REJECTED transfer was rejected: INSUFFICIENT_FUNDS or BALANCE_LIMIT
 * @param coordinator the uuid of the member that began the transfer; its removal triggers recovery at once
 */
public record Transfer(String txId, String from, String to, long amount, long at, TransferState state,
                       @Nullable Long fromBalance, @Nullable Long toBalance, @Nullable String reason,
                       String coordinator) {

    static final String INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS";
    static final String BALANCE_LIMIT = "BALANCE_LIMIT";

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

    Transfer refunding(long destinationBalance) {
        return with(TransferState.REFUNDING, fromBalance, destinationBalance, null);
    }

    Transfer rejected(long sourceBalance, String why) {
        return with(TransferState.REJECTED, sourceBalance, toBalance, why);
    }

    private Transfer with(TransferState next, Long source, Long destination, String why) {
        return new Transfer(txId, from, to, amount, at, next, source, destination, why, coordinator);
    }
}
