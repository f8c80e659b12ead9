package io.partita.transaction;

import io.micronaut.core.annotation.Nullable;
import io.partita.account.Ledger;
import io.partita.refusal.Refusal;
import io.partita.web.Ids;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The constraints of one transaction's fields, checked by hand on the routes that take transactions (the single call
 * and each item of a batch): the same field errors, with the same messages, as the bean constraints on
 * {@link TransactionApi}'s records, which stay there as the fields' documentation. {@code TransactionChecksTest} holds
 * the two equal. By hand because these routes are the node's hottest: the bean validator's interceptor cost about a
 * tenth of a call's CPU.
 */
final class TransactionChecks {

    static final String NOT_NULL = "must not be null";
    static final String TYPE = "must be DEBIT or CREDIT";
    static final String AMOUNT_MIN = "must be greater than or equal to 1";
    static final String AMOUNT_MAX = "must be less than or equal to " + Ledger.MAX_AMOUNT_TEXT;
    private static final BigDecimal MAX_AMOUNT = new BigDecimal(Ledger.MAX_AMOUNT_TEXT);

    private TransactionChecks() {
    }

    /** The errors of a single call: its path's account id ({@code id}) and its body; empty when both are valid. */
    static List<Refusal.FieldError> ofCall(@Nullable String pathId, TransactionApi.PostTransaction body) {
        List<Refusal.FieldError> errors = new ArrayList<>(0);
        id(errors, "id", pathId, false);
        fields(errors, body.txId(), body.type(), body.amount());
        return sorted(errors);
    }

    /** The errors of one item of a batch; empty when it is valid. */
    static List<Refusal.FieldError> ofItem(TransactionApi.BatchItem item) {
        List<Refusal.FieldError> errors = new ArrayList<>(0);
        id(errors, "accountId", item.accountId(), true);
        fields(errors, item.txId(), item.type(), item.amount());
        return sorted(errors);
    }

    private static void fields(List<Refusal.FieldError> errors, @Nullable String txId, @Nullable String type,
                               @Nullable BigDecimal amount) {
        id(errors, "txId", txId, true);
        if (type == null) {
            errors.add(new Refusal.FieldError("type", NOT_NULL));
        } else if (!type.equals("DEBIT") && !type.equals("CREDIT")) {
            errors.add(new Refusal.FieldError("type", TYPE));
        }
        if (amount == null) {
            errors.add(new Refusal.FieldError("amount", NOT_NULL));
        } else if (amount.compareTo(BigDecimal.ONE) < 0) {
            errors.add(new Refusal.FieldError("amount", AMOUNT_MIN));
        } else if (amount.compareTo(MAX_AMOUNT) > 0) {
            errors.add(new Refusal.FieldError("amount", AMOUNT_MAX));
        }
    }

    private static void id(List<Refusal.FieldError> errors, String field, @Nullable String id, boolean required) {
        if (id == null) {
            if (required) {
                errors.add(new Refusal.FieldError(field, NOT_NULL));
            }
        } else if (!Ids.valid(id)) {
            errors.add(new Refusal.FieldError(field, Ids.MESSAGE));
        }
    }

    private static List<Refusal.FieldError> sorted(List<Refusal.FieldError> errors) {
        if (errors.size() > 1) {
            errors.sort(Comparator.comparing(Refusal.FieldError::field));
        }
        return errors;
    }
}
