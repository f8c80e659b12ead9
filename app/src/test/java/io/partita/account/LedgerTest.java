package io.partita.account;

import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction entry processor as a plain function on an entry, before any cluster is involved. */
class LedgerTest {

    private static final long NOW = 1_700_000_000_000L;

    private final FakeLedgerHost host = new FakeLedgerHost();
    private final Map<String, Account> accounts = new HashMap<>();

    private TxOutcome run(String accountId, String txId, TxType type, long amount) {
        return runAll(accountId, List.of(TxRequest.of(txId, type, amount, NOW))).get(0);
    }

    private List<TxOutcome> runAll(String accountId, List<TxRequest> requests) {
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(accountId, accounts.get(accountId));
        TxOutcomes outcomes = new ApplyTransactions(Map.of(accountId, requests)).on(host).process(entry);
        if (entry.getValue() != null) {
            accounts.put(accountId, entry.getValue());
        }
        return outcomes.list();
    }

    private void open(String id, long balance, long overdraft) {
        accounts.put(id, Account.open(balance, overdraft));
    }

    @Test
    void shouldApplyADebitAndKeepItsEntryInTheAccountsTail() {
        open("a-1", 1_000, 0);
        TxOutcome outcome = run("a-1", "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.RECORDED, outcome.kind());
        assertEquals(TxStatus.APPLIED, outcome.entry().status());
        assertEquals(900, outcome.entry().balanceAfter());
        Account account = accounts.get("a-1");
        assertEquals(900, account.balance());
        assertEquals(1, account.version());
        assertEquals(List.of(outcome.entry()), account.tailEntries("a-1"));
        assertEquals(List.of(outcome.entry()), host.queued, "handed to the journal writer");
    }

    @Test
    void shouldRejectADebitBelowTheOverdraftLimitAndLeaveTheBalance() {
        open("a-1", 100, 50);
        assertEquals(TxStatus.APPLIED, run("a-1", "t-1", TxType.DEBIT, 150).entry().status());
        TxOutcome rejected = run("a-1", "t-2", TxType.DEBIT, 1);

        assertEquals(TxStatus.REJECTED, rejected.entry().status());
        assertEquals(-50, rejected.entry().balanceAfter());
        assertEquals(-50, accounts.get("a-1").balance());
        assertEquals(2, accounts.get("a-1").version(), "a rejection is recorded too");
    }

    @Test
    void shouldReplayTheFirstAnswerWhenATxIdIsRetried() {
        open("a-1", 1_000, 0);
        TxOutcome first = run("a-1", "t-1", TxType.DEBIT, 100);
        run("a-1", "t-2", TxType.CREDIT, 5);
        TxOutcome retry = run("a-1", "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(first.entry(), retry.entry());
        assertEquals(905, accounts.get("a-1").balance());
        assertEquals(2, accounts.get("a-1").version());
    }

    @Test
    void shouldReplayARejectionAsARejectionEvenWhenFundsArrivedSince() {
        open("a-1", 10, 0);
        run("a-1", "t-1", TxType.DEBIT, 100);
        run("a-1", "t-2", TxType.CREDIT, 1_000);
        TxOutcome retry = run("a-1", "t-1", TxType.DEBIT, 100);

        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(TxStatus.REJECTED, retry.entry().status());
        assertEquals(10, retry.entry().balanceAfter());
        assertEquals(1_010, accounts.get("a-1").balance());
    }

    @Test
    void shouldReportAConflictWhenATxIdComesBackWithAnotherPayload() {
        open("a-1", 1_000, 0);
        run("a-1", "t-1", TxType.DEBIT, 100);
        TxOutcome conflict = run("a-1", "t-1", TxType.DEBIT, 101);
        TxOutcome otherType = run("a-1", "t-1", TxType.CREDIT, 100);

        assertEquals(TxOutcome.Kind.CONFLICT, conflict.kind());
        assertEquals(TxOutcome.Kind.CONFLICT, otherType.kind());
        assertEquals(900, accounts.get("a-1").balance());
    }

    @Test
    void shouldFindARetryInTheJournalOnceItsEntryLeftTheTail() {
        open("a-1", 1_000, 0);
        TxOutcome first = run("a-1", "old", TxType.DEBIT, 1);
        run("a-1", "t-1", TxType.CREDIT, 1);
        host.flush(accounts);
        assertEquals(0, Tail.size(accounts.get("a-1").tail()), "the journal writer trimmed what it wrote");
        assertNull(accounts.get("a-1").recorded("a-1", "old"));

        TxOutcome retry = run("a-1", "old", TxType.DEBIT, 1);
        assertEquals(TxOutcome.Kind.REPLAYED, retry.kind());
        assertEquals(first.entry(), retry.entry());
        assertEquals(1_000, accounts.get("a-1").balance());
        assertEquals(TxOutcome.Kind.CONFLICT, run("a-1", "old", TxType.DEBIT, 2).kind());
    }

    @Test
    void shouldKeepAnEntryInTheTailUntilTheJournalHoldsIt() {
        open("a-1", 0, 0);
        for (int i = 0; i < 5; i++) {
            run("a-1", "t-" + i, TxType.CREDIT, 1);
        }
        // The writer died with its queue: nothing was journaled, so nothing left the tail, and every retry is answered.
        host.queued.clear();
        assertEquals(5, Tail.size(accounts.get("a-1").tail()));
        for (int i = 0; i < 5; i++) {
            assertEquals(TxOutcome.Kind.REPLAYED, run("a-1", "t-" + i, TxType.CREDIT, 1).kind());
        }
        // Trimming takes exactly what the journal holds.
        Account account = accounts.get("a-1");
        assertEquals(List.of("t-3", "t-4"), account.trimmedThrough(3).tailEntries("a-1").stream()
                .map(JournalEntry::txId).toList());
        assertEquals(5, account.balance());
    }

    @Test
    void shouldApplyABatchOnOneAccountInOrderAndReplayARepeatWithinIt() {
        open("a-1", 10, 0);
        List<TxOutcome> outcomes = runAll("a-1", List.of(
                TxRequest.of("d-1", TxType.DEBIT, 10, NOW),
                TxRequest.of("d-2", TxType.DEBIT, 1, NOW),
                TxRequest.of("c-1", TxType.CREDIT, 5, NOW),
                TxRequest.of("d-1", TxType.DEBIT, 10, NOW)));

        assertEquals(TxStatus.APPLIED, outcomes.get(0).entry().status());
        assertEquals(TxStatus.REJECTED, outcomes.get(1).entry().status(), "the first debit emptied the account");
        assertEquals(5, outcomes.get(2).entry().balanceAfter());
        assertEquals(TxOutcome.Kind.REPLAYED, outcomes.get(3).kind());
        assertEquals(List.of(1L, 2L, 3L), accounts.get("a-1").tailEntries("a-1").stream()
                .map(JournalEntry::seq).toList());
    }

    @Test
    void shouldRejectACreditThatWouldPassTheBalanceLimit() {
        open("a-1", Ledger.MAX_BALANCE, 0);
        TxOutcome outcome = run("a-1", "t-1", TxType.CREDIT, Ledger.MAX_AMOUNT);

        assertEquals(TxStatus.REJECTED, outcome.entry().status());
        assertEquals(Ledger.MAX_BALANCE, accounts.get("a-1").balance());
    }

    @Test
    void shouldAnswerNotFoundForAMissingAccountAndPartitionLostWhenItsPartitionLostItsData() {
        assertEquals(TxOutcome.Kind.NOT_FOUND, run("nope", "t-1", TxType.DEBIT, 1).kind());
        host.lost = true;
        assertEquals(TxOutcome.Kind.PARTITION_LOST, run("nope", "t-2", TxType.DEBIT, 1).kind());
        assertNull(accounts.get("nope"));
        assertEquals(List.of(), host.queued);
    }

    @Test
    void shouldNotOpenAnAccountInAPartitionThatLostItsData() {
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>("a-1", null);
        host.lost = true;
        assertEquals("PARTITION_LOST", new OpenAccount(Account.open(1, 0)).on(host).process(entry));
        assertNull(entry.getValue());
        host.lost = false;
        assertEquals("OPENED", new OpenAccount(Account.open(1, 0)).on(host).process(entry));
        assertEquals("EXISTS", new OpenAccount(Account.open(2, 0)).on(host).process(entry));
        assertEquals(1, entry.getValue().balance());
    }

    /**
     * The backup gets the appended entry, not the account: its message does not grow with the tail, and applying it to
     * the backup's copy gives exactly the primary's account.
     */
    @Test
    void shouldMakeARetryAnsweredFromTheTailWaitForTheBackup() {
        open("a-1", 1_000, 0);
        run("a-1", "t-1", TxType.DEBIT, 100);
        Account before = accounts.get("a-1");
        ApplyTransactions retry = ApplyTransactions.one("a-1", TxRequest.of("t-1", TxType.DEBIT, 100, NOW)).on(host);
        Map.Entry<String, Account> primary = new AbstractMap.SimpleEntry<>("a-1", before);

        assertEquals(TxOutcome.Kind.REPLAYED, retry.process(primary).list().get(0).kind());
        // A backup that changes nothing, but that the answer waits for: the first write's backup is applied by then.
        var backupProcessor = WireSerialization.roundTrip(retry.getBackupProcessor());
        Map.Entry<String, Account> backup = new AbstractMap.SimpleEntry<>("a-1", before);
        backupProcessor.process(backup);
        assertEquals(before, backup.getValue());
        assertEquals(before, primary.getValue());
    }

    @Test
    void shouldShipOnlyTheAppendedEntryToTheBackup() {
        open("a-1", 1_000_000, 0);
        for (int i = 0; i < 200; i++) {
            run("a-1", "setup-" + i, TxType.DEBIT, 1);
        }
        Account before = accounts.get("a-1");
        Map.Entry<String, Account> primary = new AbstractMap.SimpleEntry<>("a-1", before);
        ApplyTransactions processor = ApplyTransactions.one("a-1", TxRequest.of("t-1", TxType.DEBIT, 100, NOW))
                .on(host);
        processor.process(primary);

        Map.Entry<String, Account> backup = new AbstractMap.SimpleEntry<>("a-1", before);
        var backupProcessor = WireSerialization.roundTrip(processor.getBackupProcessor());
        backupProcessor.process(backup);
        assertEquals(primary.getValue(), backup.getValue());
        assertTrue(WireSerialization.size(backupProcessor) < 120,
                "one entry, not a tail of 201: " + WireSerialization.size(backupProcessor) + " bytes");
    }

    @Test
    void shouldBackUpEachPartitionOfAMultiKeyOperationWithItsOwnKeysOnly() {
        open("a-1", 100, 0);
        open("a-2", 100, 0);
        Map<String, List<TxRequest>> requests = new LinkedHashMap<>();
        requests.put("a-1", List.of(TxRequest.of("t-1", TxType.DEBIT, 1, NOW)));
        requests.put("a-2", List.of(TxRequest.of("t-2", TxType.DEBIT, 2, NOW)));
        ApplyTransactions processor = new ApplyTransactions(requests).on(host);
        processor.process(new AbstractMap.SimpleEntry<>("a-1", accounts.get("a-1")));
        Map.Entry<String, Account> a2 = new AbstractMap.SimpleEntry<>("a-2", accounts.get("a-2"));
        processor.process(a2);

        Map.Entry<String, Account> backup = new AbstractMap.SimpleEntry<>("a-2", accounts.get("a-2"));
        processor.getBackupProcessor().process(backup);
        assertEquals(a2.getValue(), backup.getValue());
        assertNotNull(a2.getValue().recorded("a-2", "t-2"));
    }

    @Test
    void shouldEncodeEveryKindOfEntryAndReadItBack() {
        List<JournalEntry> entries = List.of(
                new JournalEntry("a", "t-1", TxType.DEBIT, 1, TxStatus.APPLIED, -Ledger.MAX_BALANCE, 0, 1, null),
                new JournalEntry("a", "x".repeat(64), TxType.TRANSFER_IN, Ledger.MAX_AMOUNT, TxStatus.REJECTED,
                        Ledger.MAX_BALANCE, NOW, 2, "from-account"),
                new JournalEntry("a", "job/fee-1/abc", TxType.FEE, 100, TxStatus.APPLIED, 0, Long.MAX_VALUE, 3,
                        "fee-1"),
                new JournalEntry("a", "merged-1", TxType.TRANSFER_REFUND, 7, TxStatus.APPLIED, 12, NOW, 4, "x",
                        true));
        byte[] tail = Tail.encode(entries);

        assertEquals(entries, Tail.entries("a", tail, 4));
        assertEquals(entries.get(1), Tail.find("a", tail, 4, "x".repeat(64)));
        assertNull(Tail.find("a", tail, 4, "t-2"));
        assertEquals(4, Tail.size(tail));
        assertEquals(entries.subList(2, 4), Tail.entries("a", Tail.trimThrough(tail, 4, 2), 4));
        JournalEntry merged = entries.get(3);
        assertEquals(merged, JournalRecord.of(merged).entry(merged.key()), "the journal keeps the merged mark too");
    }
}
