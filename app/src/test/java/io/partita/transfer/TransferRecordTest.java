package io.partita.transfer;

import io.partita.account.JournalEntry;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.web.Ids;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The transfer record and its entry processors as plain functions. */
class TransferRecordTest {

    private static final Transfer PENDING = Transfer.begin(new TransferRequest("x-1", "a", "b", 50), 1L, "m-1");
    private static final long TTL = 60_000;

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

        assertEquals(debited, new AdvanceTransfer(PENDING.rejected(10L, Transfer.INSUFFICIENT_FUNDS).debited(1),
                TTL).process(entry));
        assertEquals(completed, new AdvanceTransfer(completed, TTL).process(entry));
        assertEquals(completed, new AdvanceTransfer(debited.refunding(5L, Transfer.BALANCE_LIMIT), TTL)
                .process(entry));
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
        TransferApi.TransferAnswer funds = TransferApi.TransferAnswer.of(
                PENDING.rejected(20L, Transfer.INSUFFICIENT_FUNDS));
        TransferApi.TransferAnswer limit = TransferApi.TransferAnswer.of(PENDING.debited(950)
                .refunding(7L, Transfer.BALANCE_LIMIT).rejected(1_000L, Transfer.BALANCE_LIMIT));
        TransferApi.TransferAnswer done = TransferApi.TransferAnswer.of(PENDING.debited(950).completed(50));

        assertEquals("REJECTED", funds.status());
        assertEquals("https://partita.dev/problems/insufficient-funds", funds.type());
        assertEquals(20L, funds.fromBalance());
        assertNull(funds.toBalance());
        assertEquals("https://partita.dev/problems/balance-limit", limit.type());
        assertEquals(1_000L, limit.fromBalance());
        assertEquals(7L, limit.toBalance());
        assertEquals("COMPLETED", done.status());
        assertNull(done.type());
        assertEquals(950L, done.fromBalance());
        assertEquals(50L, done.toBalance());
    }

    /** What the account answered to the transfer's next step, recorded with {@code status} and {@code balance}. */
    private static TxOutcome recorded(Transfer transfer, TxStatus status, long balance) {
        TxRequest step = transfer.step();
        return TxOutcome.recorded(new JournalEntry(transfer.stepAccount(), step.txId(), step.type(), step.amount(),
                status, balance, step.at(), 1, step.ref()));
    }

    /** The step's id found on its account with another payload: an earlier transfer with this id left it. */
    private static TxOutcome conflict(Transfer transfer) {
        TxRequest step = transfer.step();
        return TxOutcome.conflict(new JournalEntry(transfer.stepAccount(), step.txId(), step.type(),
                step.amount() + 1, TxStatus.APPLIED, 0, 1L, 1, step.ref()));
    }

    @Test
    void shouldMoveThroughTheUsualStepsOnTheAccountsAnswers() {
        Transfer debited = PENDING.after(recorded(PENDING, TxStatus.APPLIED, 950));
        Transfer completed = debited.after(recorded(debited, TxStatus.APPLIED, 50));
        Transfer poor = PENDING.after(recorded(PENDING, TxStatus.REJECTED, 20));
        Transfer refunding = debited.after(recorded(debited, TxStatus.REJECTED, 7));
        Transfer returned = refunding.after(recorded(refunding, TxStatus.APPLIED, 1_000));

        assertEquals(PENDING.debited(950), debited);
        assertEquals(debited.completed(50), completed);
        assertEquals(PENDING.rejected(20L, Transfer.INSUFFICIENT_FUNDS), poor);
        assertEquals(debited.refunding(7L, Transfer.BALANCE_LIMIT), refunding);
        assertEquals(refunding.rejected(1_000L, Transfer.BALANCE_LIMIT), returned);
        assertEquals(List.of("a", "b", "a"), List.of(PENDING.stepAccount(), debited.stepAccount(),
                refunding.stepAccount()));
        assertThrows(IllegalStateException.class, () -> completed.after(recorded(debited, TxStatus.APPLIED, 1)));
    }

    @Test
    void shouldRejectATransferWhoseDebitCannotBeRecordedWithNothingMoved() {
        Transfer conflicted = PENDING.after(conflict(PENDING));
        Transfer noSource = PENDING.after(TxOutcome.notFound());

        assertStateAndReason(conflicted, TransferState.REJECTED, Transfer.ID_CONFLICT);
        assertNull(conflicted.fromBalance());
        assertStateAndReason(noSource, TransferState.REJECTED, Transfer.SOURCE_NOT_FOUND);
    }

    @Test
    void shouldReturnTheAmountWhenTheCreditCannotBeRecordedAndKeepTheReason() {
        Transfer debited = PENDING.debited(950);
        Transfer conflicted = debited.after(conflict(debited));
        Transfer noDestination = debited.after(TxOutcome.notFound());

        assertStateAndReason(conflicted, TransferState.REFUNDING, Transfer.ID_CONFLICT);
        assertNull(conflicted.toBalance());
        assertStateAndReason(noDestination, TransferState.REFUNDING, Transfer.DESTINATION_NOT_FOUND);
        Transfer returned = noDestination.after(recorded(noDestination, TxStatus.APPLIED, 1_000));
        assertStateAndReason(returned, TransferState.REJECTED, Transfer.DESTINATION_NOT_FOUND);
        assertEquals(1_000L, returned.fromBalance());
    }

    @Test
    void shouldFinishATransferWhoseRefundCannotBeRecordedAsRefundFailed() {
        Transfer refunding = PENDING.debited(950).refunding(null, Transfer.ID_CONFLICT);
        Transfer failed = refunding.after(conflict(refunding));
        Transfer sourceGone = refunding.after(TxOutcome.notFound());
        Transfer recordedBeforeReasons = PENDING.debited(950).refunding(7L, null);

        assertStateAndReason(failed, TransferState.REJECTED, Transfer.REFUND_FAILED);
        assertEquals(950L, failed.fromBalance());
        assertEquals(Transfer.REFUND_FAILED, sourceGone.reason());
        assertEquals(Transfer.BALANCE_LIMIT, recordedBeforeReasons
                .after(recorded(recordedBeforeReasons, TxStatus.APPLIED, 1_000)).reason());
        assertEquals("Transfer failed", TransferApi.TransferAnswer.of(failed).title());
    }

    @Test
    void shouldNeverExpireAnUnfinishedRecordAndExpireAFinishedOneAfterItsTimeToLive() {
        AdvanceTransfer toDebited = new AdvanceTransfer(PENDING.debited(950), TTL);
        AdvanceTransfer toCompleted = new AdvanceTransfer(PENDING.debited(950).completed(50), TTL);
        toDebited.process(entry(PENDING));
        toCompleted.process(entry(PENDING.debited(950)));
        var begun = entry(null);
        BeginTransfer begin = new BeginTransfer(PENDING);
        begin.process(begun);

        assertEquals(ReplaceTransfer.NO_EXPIRY, ttlOf((ReplaceTransfer) toDebited.getBackupProcessor()));
        assertEquals(TTL, ttlOf((ReplaceTransfer) toCompleted.getBackupProcessor()));
        assertEquals(ReplaceTransfer.NO_EXPIRY, ttlOf((ReplaceTransfer) begin.getBackupProcessor()));
        assertThrows(IllegalArgumentException.class, () -> new AdvanceTransfer(PENDING, 0));
    }

    private static long ttlOf(ReplaceTransfer backup) {
        return backup.ttlMillis();
    }

    private static void assertStateAndReason(Transfer transfer, TransferState state, String reason) {
        assertEquals(state, transfer.state());
        assertEquals(reason, transfer.reason());
    }
}
