package io.partita.transaction;

import io.micronaut.validation.validator.Validator;
import io.partita.refusal.Refusal;
import io.partita.web.ConstraintViolationHandler;
import io.partita.web.Ids;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The hand-written checks of the transaction routes give exactly the field errors, messages included, that the bean
 * constraints on {@link TransactionApi}'s records give, valid and invalid fields alike: so the constraints, which
 * document the fields, and the checks, which run, cannot drift apart.
 */
class TransactionChecksTest {

    private static final Validator VALIDATOR = Validator.getInstance();

    @ParameterizedTest(name = "txId={0} account={1} type={2} amount={3}")
    @CsvSource(nullValues = "NULL", textBlock = """
            t-1,   a-1,   DEBIT,  1
            t-1,   a-1,   CREDIT, 1000000000000000
            NULL,  a-1,   DEBIT,  1
            '',    a-1,   DEBIT,  1
            a b,   a-1,   DEBIT,  1
            x1234567890123456789012345678901234567890123456789012345678901234, a-1, DEBIT, 1
            x123456789012345678901234567890123456789012345678901234567890123,  a-1, DEBIT, 1
            t.1_2:3-4, a-1, DEBIT, 1
            t-é,   a-1,   DEBIT,  1
            t-1,   NULL,  DEBIT,  1
            t-1,   a/1,   DEBIT,  1
            t-1,   a-1,   NULL,   1
            t-1,   a-1,   debit,  1
            t-1,   a-1,   REFUND, 1
            t-1,   a-1,   DEBIT,  NULL
            t-1,   a-1,   DEBIT,  0
            t-1,   a-1,   DEBIT,  -5
            t-1,   a-1,   DEBIT,  0.5
            t-1,   a-1,   DEBIT,  1000000000000001
            t-1,   a-1,   DEBIT,  99999999999999999999999
            NULL,  NULL,  NULL,   NULL
            a b,   a b,   x,      0
            """)
    void shouldAnswerAsTheBeanConstraintsDo(String txId, String accountId, String type, BigDecimal amount) {
        TransactionApi.BatchItem item = new TransactionApi.BatchItem(txId, accountId, type, amount);
        assertEquals(byValidator(item), TransactionChecks.ofItem(item));

        TransactionApi.PostTransaction body = new TransactionApi.PostTransaction(txId, type, amount);
        List<Refusal.FieldError> bodyErrors = byValidator(body);
        assertEquals(bodyErrors, TransactionChecks.ofCall("a-1", body));
        if (accountId != null) {
            // The path's id is checked as the item's accountId is (compared with the constraint above), named "id".
            List<Refusal.FieldError> withPath = new ArrayList<>(bodyErrors);
            if (!Ids.valid(accountId)) {
                withPath.add(new Refusal.FieldError("id", Ids.MESSAGE));
            }
            withPath.sort(Comparator.comparing(Refusal.FieldError::field));
            assertEquals(withPath, TransactionChecks.ofCall(accountId, body));
        }
    }

    @ParameterizedTest
    @CsvSource({"NULL", "''", "a b"})
    void shouldFindAnInvalidPathIdAlone(String id) {
        String pathId = "NULL".equals(id) ? null : id;
        List<Refusal.FieldError> errors = TransactionChecks.ofCall(pathId,
                new TransactionApi.PostTransaction("t-1", "DEBIT", BigDecimal.ONE));
        assertEquals(pathId == null, errors.isEmpty(), errors.toString());
        if (pathId != null) {
            assertEquals(List.of(new Refusal.FieldError("id", Ids.MESSAGE)), errors);
        }
    }

    @ParameterizedTest
    @CsvSource({"DEBIT", "CREDIT"})
    void shouldFindNoErrorInAValidCall(String type) {
        assertFalse(TransactionChecks.ofCall("a-1", new TransactionApi.PostTransaction("t-1", type, BigDecimal.TEN))
                .iterator().hasNext());
    }

    private static <T> List<Refusal.FieldError> byValidator(T bean) {
        return VALIDATOR.validate(bean).stream()
                .map(violation -> new Refusal.FieldError(ConstraintViolationHandler.field(violation),
                        violation.getMessage()))
                .sorted(Comparator.comparing(Refusal.FieldError::field))
                .toList();
    }
}
