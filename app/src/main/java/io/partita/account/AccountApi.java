package io.partita.account;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.web.Ids;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.time.Instant;

/** The bodies of the account API (app/README.md, "The API in brief"). */
final class AccountApi {

    /*
     * Amounts arrive as BigDecimal read from a JSON integer only (StrictJson.Whole), so a value past a long is still a
     * field error rather than an overflow; the constraints keep it in range, so the controllers convert it with
     * longValueExact().
     */

    private AccountApi() {
    }

    @Serdeable
    record OpenAccount(
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id,
            @Nullable @StrictJson.Whole @DecimalMin("0") @DecimalMax(Ledger.MAX_BALANCE_TEXT) BigDecimal balance,
            @Nullable @StrictJson.Whole @DecimalMin("0") @DecimalMax(Ledger.MAX_BALANCE_TEXT)
            BigDecimal overdraftLimit) {
    }

    /**
     * @param partition      the partition the account lives in (0..270)
     * @param owner          the address of the member that owns that partition now
     * @param mergeConflicts how many split-brain merges left the account below its overdraft limit (both sides
     *                       debited it); absent when none did
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AccountView(String id, long balance, long overdraftLimit, long version, int partition,
                       @Nullable String owner, @Nullable Integer mergeConflicts) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record JournalView(String txId, String type, long amount, String status, long balanceAfter, String at, long seq,
                       @Nullable String ref, boolean merged) {

        static JournalView of(JournalEntry entry) {
            return new JournalView(entry.txId(), entry.type().name(), entry.amount(), entry.status().name(),
                    entry.balanceAfter(), Instant.ofEpochMilli(entry.at()).toString(), entry.seq(), entry.ref(),
                    entry.merged());
        }
    }
}
