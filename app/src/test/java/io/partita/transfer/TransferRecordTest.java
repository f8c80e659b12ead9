package io.partita.transfer;

import io.partita.account.TxType;
import io.partita.web.Ids;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The transfer record and its entry processors as plain functions. */
class TransferRecordTest {

    private static final Transfer PENDING = Transfer.begin(new TransferRequest("x-1", "a", "b", 50), 1L, "m-1");

    private static Map.Entry<TransferKey, Transfer> entry(Transfer transfer) {
        return new AbstractMap.SimpleEntry<>(PENDING.key(), transfer);
    }

    @Test
    void shouldRecordANewTransferAndAnswerTheRecordedOneToAnyLaterBegin() {
        var entry = entry(null);
        assertNull(new BeginTransfer(PENDING).process(entry));
        assertEquals(PENDING, entry.getValue());

        Transfer other = Transfer.begin(new TransferRequest("x-1", "a", "c", 99), 2L, "m-2");
        BeginTransfer again = new BeginTransfer(other);
        assertEquals(PENDING, again.process(entry));
        assertEquals(PENDING, entry.getValue());
        assertNull(again.getBackupProcessor());
    }

    @Test
    void shouldOnlyMoveATransferForward() {
        Transfer debited = PENDING.debited(950);
        Transfer completed = debited.completed(50);
        var entry = entry(debited);

        assertEquals(debited, new AdvanceTransfer(PENDING.rejected(10, Transfer.INSUFFICIENT_FUNDS).debited(1))
                .process(entry));
        assertEquals(completed, new AdvanceTransfer(completed).process(entry));
        assertEquals(completed, new AdvanceTransfer(debited.refunding(5)).process(entry));
        assertEquals(completed, entry.getValue());
    }

    @Test
    void shouldDeriveStepIdsThatNoClientIdAndNoOtherStepCanTake() {
        Transfer x = Transfer.begin(new TransferRequest("refund", "a", "b", 1), 1L, "m");
        Transfer y = Transfer.begin(new TransferRequest("x", "refund", "a", 1), 1L, "m");
        List<String> ids = List.of(x.debit().txId(), x.credit().txId(), x.refund().txId(), y.debit().txId(),
                y.credit().txId(), y.refund().txId());

        assertEquals(ids.size(), Set.copyOf(ids).size(), ids.toString());
        ids.forEach(id -> assertFalse(Ids.valid(id), id));
        assertEquals(List.of(TxType.TRANSFER_OUT, TxType.TRANSFER_IN, TxType.TRANSFER_REFUND),
                List.of(x.debit().type(), x.credit().type(), x.refund().type()));
        assertEquals(Set.of("b", "a"), Set.of(x.debit().ref(), x.credit().ref()));
    }

    @Test
    void shouldAnswerARejectionAsAProblemWithTheTransferStatus() {
        TransferApi.TransferAnswer funds = TransferApi.TransferAnswer.of(PENDING.rejected(20, Transfer.INSUFFICIENT_FUNDS));
        TransferApi.TransferAnswer limit = TransferApi.TransferAnswer.of(PENDING.debited(950).refunding(7)
                .rejected(1_000, Transfer.BALANCE_LIMIT));
        TransferApi.TransferAnswer done = TransferApi.TransferAnswer.of(PENDING.debited(950).completed(50));

        assertEquals("REJECTED", funds.status());
        assertEquals("https://partita.dev/problems/insufficient-funds", funds.type());
        assertNull(funds.toBalance());
        assertEquals("https://partita.dev/problems/balance-limit", limit.type());
        assertEquals(Map.of("from", 1_000L, "to", 7L), Map.of("from", limit.fromBalance(), "to", limit.toBalance()));
        assertEquals("COMPLETED", done.status());
        assertNull(done.type());
        assertEquals(Set.of(950L, 50L), Set.of(done.fromBalance(), done.toBalance()).stream()
                .collect(Collectors.toSet()));
    }
}
