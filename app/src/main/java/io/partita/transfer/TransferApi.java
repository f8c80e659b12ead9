package io.partita.transfer;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.account.Ledger;
import io.partita.web.Ids;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;

/** The bodies of {@code POST /transfers} (app/README.md, "The API in brief"). */
final class TransferApi {

    private TransferApi() {
    }

    @Serdeable
    record PostTransfer(
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String txId,
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String from,
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String to,
            @NotNull @StrictJson.Whole @DecimalMin("1") @DecimalMax(Ledger.MAX_AMOUNT_TEXT) BigDecimal amount) {
    }

    /**
     * The answer to a transfer. A rejection is also a problem (RFC 9457), shaped as a rejected transaction's answer:
     * {@code type}, {@code title}, {@code detail} and {@code reason} beside the transfer's own {@code status},
     * {@code REJECTED}.
     *
     * @param fromBalance the source's balance after the debit; for a rejection, its balance as the transfer left it
     * @param toBalance   the destination's balance after the credit; absent when the destination was never touched
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TransferAnswer(String txId, String from, String to, long amount, String status,
                          @Nullable Long fromBalance, @Nullable Long toBalance,
                          @Nullable String type, @Nullable String title, @Nullable String detail,
                          @Nullable String reason) {

        static TransferAnswer of(Transfer transfer) {
            if (transfer.state() == TransferState.COMPLETED) {
                return new TransferAnswer(transfer.txId(), transfer.from(), transfer.to(), transfer.amount(),
                        transfer.state().name(), transfer.fromBalance(), transfer.toBalance(), null, null, null, null);
            }
            String title;
            String detail;
            switch (transfer.reason()) {
                case Transfer.BALANCE_LIMIT -> {
                    title = "Balance limit";
                    detail = "The credit would take account '" + transfer.to() + "' above " + Ledger.MAX_BALANCE
                            + "; the amount was returned to account '" + transfer.from() + "'.";
                }
                case Transfer.REFUND_FAILED -> {
                    title = "Transfer failed";
                    detail = "Account '" + transfer.to() + "' could not be credited, and the amount could not be "
                            + "returned to account '" + transfer.from() + "' automatically; it needs a correction.";
                }
                default -> {
                    title = "Insufficient funds";
                    detail = "The debit would take account '" + transfer.from() + "' below its overdraft limit.";
                }
            }
            return new TransferAnswer(transfer.txId(), transfer.from(), transfer.to(), transfer.amount(),
                    transfer.state().name(), transfer.fromBalance(), transfer.toBalance(),
                    "https://partita.dev/problems/" + transfer.reason().toLowerCase().replace('_', '-'),
                    title, detail, transfer.reason());
        }
    }
}
