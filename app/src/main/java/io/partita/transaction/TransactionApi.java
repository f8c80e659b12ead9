package io.partita.transaction;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.account.JournalEntry;
import io.partita.account.Ledger;
import io.partita.account.TxStatus;
import io.partita.refusal.Refusal;
import io.partita.web.Ids;
import io.partita.web.Problem;
import io.partita.web.Refusals;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.util.List;

/** The bodies of the transaction API (app/README.md, "The API in brief"): one transaction, and batches of them. */
final class TransactionApi {

    /** The transaction types a client may send. */
    private static final String TYPES = "DEBIT|CREDIT";

    /*
     * Amounts arrive as BigDecimal read from a JSON integer only (StrictJson.Whole), so a value past a long is still a
     * field error rather than an overflow; the constraints keep it in range, so the controllers convert it with
     * longValueExact().
     */

    private TransactionApi() {
    }

    @Serdeable
    record PostTransaction(
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String txId,
            @NotNull @StrictJson.Text @Pattern(regexp = TYPES, message = "must be DEBIT or CREDIT") String type,
            @NotNull @StrictJson.Whole @DecimalMin("1") @DecimalMax(Ledger.MAX_AMOUNT_TEXT) BigDecimal amount) {
    }

    /** One item of {@code POST /transactions/batch}: a single call's body plus the account it is for. */
    @Serdeable
    record BatchItem(
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String txId,
            @NotNull @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String accountId,
            @NotNull @StrictJson.Text @Pattern(regexp = TYPES, message = "must be DEBIT or CREDIT") String type,
            @NotNull @StrictJson.Whole @DecimalMin("1") @DecimalMax(Ledger.MAX_AMOUNT_TEXT) BigDecimal amount) {
    }

    /**
     * One answer of a batch: the body the single call would have answered (a transaction answer or a problem), plus
     * its {@code httpStatus}, plus {@code replayed} where the single call would have sent Idempotent-Replayed.
     *
     * @param status the transaction's status (APPLIED, REJECTED), or for a problem its HTTP status, as in the single
     * call
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record BatchAnswer(@Nullable String txId, @Nullable String accountId, Object status, @Nullable Long balance,
                       @Nullable String type, @Nullable String title, @Nullable String detail,
                       @Nullable String reason, @Nullable List<Problem.FieldError> errors, int httpStatus,
                       @Nullable Boolean replayed) {

        static BatchAnswer of(Reply reply) {
            if (reply.error() != null) {
                return problem(reply.answer() == null ? null : reply.answer().txId(), null, reply.error());
            }
            TransactionAnswer answer = reply.answer();
            return new BatchAnswer(answer.txId(), answer.accountId(), answer.status(), answer.balance(),
                    answer.type(), answer.title(), answer.detail(), answer.reason(), null, reply.httpStatus(),
                    reply.replayed() ? Boolean.TRUE : null);
        }

        static BatchAnswer problem(@Nullable String txId, @Nullable String accountId, Refusal error) {
            Problem problem = Refusals.problem(error);
            return new BatchAnswer(txId, accountId, problem.status(), null, problem.type(), problem.title(),
                    problem.detail(), null, problem.errors() == null || problem.errors().isEmpty()
                    ? null : problem.errors(), problem.status(), null);
        }
    }

    /**
     * The answer to a transaction; the single call's body, and an item of a batch's answer with its status. A
     * rejection is also a problem (RFC 9457): it carries {@code type}, {@code title} and {@code detail} beside the
     * transaction's own {@code status}, which is {@code REJECTED}.
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TransactionAnswer(String txId, String accountId, String status, long balance,
                             @Nullable String type, @Nullable String title, @Nullable String detail,
                             @Nullable String reason) {

        static TransactionAnswer of(JournalEntry entry) {
            if (entry.status() == TxStatus.APPLIED) {
                return new TransactionAnswer(entry.txId(), entry.accountId(), entry.status().name(),
                        entry.balanceAfter(), null, null, null, null);
            }
            boolean limit = entry.type().delta(entry.amount()) > 0;
            String reason = limit ? "BALANCE_LIMIT" : "INSUFFICIENT_FUNDS";
            String detail = limit
                    ? "The credit would take the balance above " + Ledger.MAX_BALANCE + "."
                    : "The debit would take the balance below the overdraft limit.";
            return new TransactionAnswer(entry.txId(), entry.accountId(), entry.status().name(),
                    entry.balanceAfter(), "https://partita.dev/problems/" + reason.toLowerCase().replace('_', '-'),
                    limit ? "Balance limit" : "Insufficient funds", detail, reason);
        }
    }
}
