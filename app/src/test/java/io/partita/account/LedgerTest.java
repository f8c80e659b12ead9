package io.partita.account;

import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction entry processor as a plain function on an entry, before any cluster is involved. */
class LedgerTest {

    private static final long NOW = 1_700_000_000_000L;

    private final Map<JournalKey, JournalEntry> journal = new HashMap<>();

    private TxOutcome run(Map.Entry<String, Account> entry, String txId, TxType type, long amount) {
        Ledger.Decision decision = Ledger.decide(entry.getValue(), TxRequest.of(txId, type, amount, NOW),
                journal::get, journal::containsKey);
        if (decision.account() != null) {
            entry.setValue(decision.account());
            journal.put(decision.outcome().entry().key(), decision.outcome().entry());
        }
        return decision.outcome();
    }

    private static Map.Entry<String, Account> account(long balance, long overdraft) {
        return new AbstractMap.SimpleEntry<>("a-1", Account.open("a-1", balance, overdraft));
    }

    @Test
    void shouldApplyADebitAndRecordIt() {
        var entry = account(1_000, 0);
        TxOutcome outcome = run(entry, "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(TxStatus.APPLIED, outcome.entry().status());
        assertEquals(900, outcome.entry().balanceAfter());
        assertEquals(900, entry.getValue().balance());
        assertEquals(1, entry.getValue().version());
    }

    @Test
    void shouldRejectADebitBelowTheOverdraftLimitAndLeaveTheBalance() {
        var entry = account(100, 50);
        assertEquals(TxStatus.APPLIED, run(entry, "t-1", TxType.DEBIT, 150).entry().status());
        TxOutcome rejected = run(entry, "t-2", TxType.DEBIT, 1);

        assertEquals(TxStatus.REJECTED, rejected.entry().status());
        assertEquals(-50, rejected.entry().balanceAfter());
        assertEquals(-50, entry.getValue().balance());
    }

    @Test
    void shouldReplayTheFirstAnswerWhenATxIdIsRetried() {
        var entry = account(1_000, 0);
        TxOutcome first = run(entry, "t-1", TxType.DEBIT, 100);
        run(entry, "t-2", TxType.CREDIT, 5);
        TxOutcome retry = run(entry, "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(first.entry(), retry.entry());
        assertEquals(905, entry.getValue().balance());
    }

    @Test
    void shouldReplayARejectionAsARejectionEvenWhenFundsArrivedSince() {
        var entry = account(10, 0);
        run(entry, "t-1", TxType.DEBIT, 100);
        run(entry, "t-2", TxType.CREDIT, 1_000);
        TxOutcome retry = run(entry, "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(TxStatus.REJECTED, retry.entry().status());
        assertEquals(10, retry.entry().balanceAfter());
        assertEquals(1_010, entry.getValue().balance());
    }

    @Test
    void shouldReportAConflictWhenATxIdComesBackWithAnotherPayload() {
        var entry = account(1_000, 0);
        run(entry, "t-1", TxType.DEBIT, 100);
        TxOutcome conflict = run(entry, "t-1", TxType.DEBIT, 101);
        TxOutcome otherType = run(entry, "t-1", TxType.CREDIT, 100);

        assertEquals(TxOutcome.Kind.CONFLICT, conflict.kind());
        assertEquals(TxOutcome.Kind.CONFLICT, otherType.kind());
        assertEquals(900, entry.getValue().balance());
    }

    @Test
    void shouldFindARetryOlderThanTheRecentListInTheJournal() {
        var entry = account(1_000, 0);
        TxOutcome first = run(entry, "old", TxType.DEBIT, 1);
        for (int i = 0; i < Ledger.RECENT * 2; i++) {
            run(entry, "t-" + i, TxType.CREDIT, 1);
        }
        assertNull(entry.getValue().recent("old"));

        TxOutcome retry = run(entry, "old", TxType.DEBIT, 1);
        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(first.entry(), retry.entry());
        assertEquals(1_000 - 1 + Ledger.RECENT * 2, entry.getValue().balance());
    }

    @Test
    void shouldDropFromTheRecentListOnlyWhatTheJournalHolds() {
        var entry = account(0, 0);
        for (int i = 0; i < Ledger.RECENT; i++) {
            run(entry, "t-" + i, TxType.CREDIT, 1);
        }
        Ledger.Decision decision = Ledger.decide(entry.getValue(), TxRequest.of("next", TxType.CREDIT, 1, NOW),
                journal::get, journal::containsKey);

        assertEquals(Ledger.RECENT, decision.account().recent().size());
        assertNull(decision.account().recent("t-0"));
        assertEquals("next", decision.account().recent().get(Ledger.RECENT - 1).txId());
        assertEquals(List.of(), decision.toJournal());
    }

    /**
     * The node that recorded t-0 died before it wrote the journal: the account keeps t-0 (a late retry of it is still
     * answered), names it for writing once enough newer transactions passed, and lets it go once the journal has it.
     */
    @Test
    void shouldKeepAnEntryTheJournalLacksAndNameItForWritingOnceItHasWaited() {
        var entry = account(0, 0);
        Map<JournalKey, JournalEntry> none = Map.of();
        Ledger.Decision first = Ledger.decide(entry.getValue(), TxRequest.of("t-0", TxType.CREDIT, 1, NOW),
                none::get, none::containsKey);
        entry.setValue(first.account());
        JournalEntry lost = first.outcome().entry();
        int newer = Ledger.RECENT + Ledger.JOURNAL_SLACK;
        for (int i = 1; i <= newer; i++) {
            Ledger.Decision decision = Ledger.decide(entry.getValue(), TxRequest.of("t-" + i, TxType.CREDIT, 1, NOW),
                    journal::get, journal::containsKey);
            assertEquals(List.of(), decision.toJournal());
            entry.setValue(decision.account());
            journal.put(decision.outcome().entry().key(), decision.outcome().entry());
            assertEquals(lost, entry.getValue().recent("t-0"));
        }
        Ledger.Decision late = Ledger.decide(entry.getValue(), TxRequest.of("late", TxType.CREDIT, 1, NOW),
                journal::get, journal::containsKey);
        assertEquals(List.of(lost), late.toJournal());
        assertEquals(lost, late.account().recent("t-0"));
        assertEquals(TxOutcome.Kind.REPLAYED, Ledger.decide(late.account(),
                TxRequest.of("t-0", TxType.CREDIT, 1, NOW), journal::get, journal::containsKey).outcome().kind());

        journal.put(lost.key(), lost);
        Ledger.Decision after = Ledger.decide(late.account(), TxRequest.of("after", TxType.CREDIT, 1, NOW),
                journal::get, journal::containsKey);
        assertNull(after.account().recent("t-0"));
        assertEquals(Ledger.RECENT, after.account().recent().size());
        assertEquals(List.of(), after.toJournal());
    }

    @Test
    void shouldRejectACreditThatWouldPassTheBalanceLimit() {
        var entry = account(Ledger.MAX_BALANCE, 0);
        TxOutcome outcome = run(entry, "t-1", TxType.CREDIT, Ledger.MAX_AMOUNT);

        assertEquals(TxStatus.REJECTED, outcome.entry().status());
        assertEquals(Ledger.MAX_BALANCE, entry.getValue().balance());
    }

    @Test
    void shouldAnswerNotFoundForAMissingAccountThroughTheEntryProcessor() {
        Map.Entry<String, Account> missing = new AbstractMap.SimpleEntry<>("nope", null);
        TxOutcome outcome = new ApplyTransaction(TxRequest.of("t-1", TxType.DEBIT, 1, NOW)).process(missing);

        assertEquals(TxOutcome.Kind.NOT_FOUND, outcome.kind());
        assertNull(missing.getValue());
    }

    @Test
    void shouldShipTheComputedAccountToTheBackupInsteadOfDecidingAgain() {
        var entry = account(1_000, 0);
        ApplyTransaction processor = new ApplyTransaction(TxRequest.of("t-1", TxType.DEBIT, 100, NOW));
        processor.process(entry);

        var backup = account(1_000, 0);
        processor.getBackupProcessor().process(backup);
        assertEquals(entry.getValue(), backup.getValue());
        assertTrue(backup.getValue().recent("t-1") != null);
    }
}
