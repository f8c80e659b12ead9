package io.partita.account;

import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge of one account's two sides after a network split, as a plain function: both sides start from one account
 * (what they shared before the split), each records transactions of its own through the real entry processor, and
 * the union must hold every transaction once, with the balance they explain.
 */
class AccountUnionTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final String ID = "a-1";

    /** The side merged into: its journal is the partition's journal after the merge. */
    private final FakeLedgerHost ours = new FakeLedgerHost();
    /** The other side. */
    private final FakeLedgerHost theirs = new FakeLedgerHost();

    private Account post(FakeLedgerHost host, Account account, String txId, TxType type, long amount) {
        return post(host, account, txId, type, amount, NOW);
    }

    private Account post(FakeLedgerHost host, Account account, String txId, TxType type, long amount, long at) {
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, account);
        new ApplyTransactions(Map.of(ID, List.of(TxRequest.of(txId, type, amount, at)))).on(host).process(entry);
        return entry.getValue();
    }

    /** {@code account} after a credit of 1 under {@code txId} at {@code NOW + i}, once the journal holds it. */
    private Account creditJournaled(FakeLedgerHost host, Account account, String txId, int i) {
        Account credited = post(host, account, txId, TxType.CREDIT, 1, NOW + i);
        host.journalQueued();
        return credited;
    }

    /** Both sides before the split: opened, two transactions, both journaled and trimmed on both sides. */
    private Account shared() {
        Account account = Account.open(1_000, 0);
        account = post(ours, account, "s-1", TxType.DEBIT, 100);
        account = post(ours, account, "s-2", TxType.CREDIT, 10);
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, account);
        ours.flush(entry);
        theirs.journal.putAll(ours.journal);
        return entry.getValue();
    }

    /**
     * A restart joins another disk's copy of one history: an entry below the account's tail at a seq it counts, that
     * this member's disk does not hold yet (offered to the holders of before a migration), is the account's own, not a
     * transaction to add; a merge of a split's two sides still adds it, and a restart adds an entry the disk holds a
     * different one at, or one past the account's version.
     */
    @Test
    void shouldNotAddAtARestartAnEntryAtASeqTheAccountCountsWhenTheDiskHoldsNoneThere() {
        Account before = shared();
        Account copy = post(theirs, before, "c-1", TxType.CREDIT, 7);
        Account existing = new Account(copy.balance(), copy.overdraftLimit(), copy.version(), copy.fence(),
                copy.openingBalance(), Tail.EMPTY, copy.jobs(), copy.conflicts());
        ours.onDisk = Map.of();

        assertEquals(List.of(), AccountUnion.restart(ID, existing, copy, ours, 0).appended(),
                "c-1 is the account's seq 3, which the cluster counts");
        assertEquals(copy.balance(), AccountUnion.restart(ID, existing, copy, ours, 0).account().balance());
        assertEquals(List.of("c-1"), AccountUnion.of(ID, existing, copy, ours, 0).appended().stream()
                .map(JournalEntry::txId).toList(), "a merge adds it");

        ours.onDisk = Map.of(ID, java.util.Set.of(3L));
        assertEquals(List.of("c-1"), AccountUnion.restart(ID, existing, copy, ours, 0).appended().stream()
                .map(JournalEntry::txId).toList(), "the disk holds another transaction at seq 3");

        Account further = post(theirs, copy, "c-2", TxType.CREDIT, 5);
        ours.onDisk = Map.of();
        assertEquals(List.of("c-2"), AccountUnion.restart(ID, existing, further, ours, 0).appended().stream()
                .map(JournalEntry::txId).toList(), "past the account's version: the copy went further");
    }

    @Test
    void shouldKeepBothSidesTransactionsAndRecomputeTheBalance() {
        Account before = shared();
        Account mine = post(ours, before, "o-1", TxType.DEBIT, 200);
        Account other = post(theirs, before, "t-1", TxType.CREDIT, 50);
        other = post(theirs, other, "t-2", TxType.DEBIT, 30);

        AccountUnion.Result joined = AccountUnion.of(ID, mine, other, ours, 0);

        Account account = joined.account();
        assertEquals(910 - 200 + 50 - 30, account.balance());
        assertEquals(5, account.version(), "2 shared + 1 of ours + 2 of theirs");
        assertEquals(List.of("o-1", "t-1", "t-2"),
                account.tailEntries(ID).stream().map(JournalEntry::txId).toList());
        JournalEntry t1 = account.recorded(ID, "t-1");
        assertEquals(4, t1.seq(), "their entries follow ours");
        assertEquals(960, t1.balanceAfter(), "the answer their client got is kept");
        assertEquals(2, joined.appended().size());
        assertFalse(joined.conflict());
        assertEquals(0, account.conflicts());
    }

    @Test
    void shouldCountATxIdBothSidesRecordedOnceAsThisSideRecordedIt() {
        Account before = shared();
        Account mine = post(ours, before, "x-1", TxType.DEBIT, 200);
        Account other = post(theirs, before, "x-1", TxType.DEBIT, 200);

        AccountUnion.Result joined = AccountUnion.of(ID, mine, other, ours, 0);

        assertEquals(mine, joined.account());
        assertTrue(joined.appended().isEmpty());
    }

    @Test
    void shouldNotAddAgainWhatThisSideHasAlreadyJournaledAndTrimmed() {
        Account before = shared();
        Account mine = post(ours, before, "o-1", TxType.DEBIT, 5);
        Map.Entry<String, Account> flushed = new AbstractMap.SimpleEntry<>(ID, mine);
        ours.flush(flushed);
        // Their side still holds an entry both sides shared in its tail (its writer had not caught up).
        Account other = Account.open(1_000, 0);
        other = post(theirs, other, "s-1", TxType.DEBIT, 100);

        AccountUnion.Result joined = AccountUnion.of(ID, flushed.getValue(), other, ours, 0);

        assertEquals(flushed.getValue(), joined.account());
    }

    @Test
    void shouldKeepARejectionWithoutMovingTheBalance() {
        Account before = shared();
        Account other = post(theirs, before, "t-1", TxType.DEBIT, 5_000);
        assertEquals(TxStatus.REJECTED, other.recorded(ID, "t-1").status());

        AccountUnion.Result joined = AccountUnion.of(ID, before, other, ours, 0);

        assertEquals(910, joined.account().balance());
        assertEquals(TxStatus.REJECTED, joined.account().recorded(ID, "t-1").status());
    }

    @Test
    void shouldReportAConflictWhenBothSidesDebitedPastTheLimit() {
        Account before = shared();
        Account mine = post(ours, before, "o-1", TxType.DEBIT, 900);
        Account other = post(theirs, before, "t-1", TxType.DEBIT, 800);

        AccountUnion.Result joined = AccountUnion.of(ID, mine, other, ours, 0);

        assertEquals(910 - 900 - 800, joined.account().balance(), "both acknowledged debits stay");
        assertTrue(joined.conflict());
        assertEquals(1, joined.account().conflicts());
    }

    @Test
    void shouldTakeTheOtherSidesJobsAndHigherFence() {
        Account before = shared();
        Account other = before.withJob("fee-1:run").withFence(7);

        Account joined = AccountUnion.of(ID, before, other, ours, 0).account();

        assertTrue(joined.hasSeenJob("fee-1:run"));
        assertEquals(7, joined.fence());
    }

    @Test
    void shouldKeepEntriesRecordedSinceTheHoldCutoffInTheTailAndLetJournaledOnesGoABatchAtATime() {
        int batch = JournalSettings.TRIM_BATCH;
        ours.holdCutoff = NOW + batch + 1;
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, Account.open(1_000, 0));
        for (int i = 1; i <= batch; i++) {
            entry.setValue(creditJournaled(ours, entry.getValue(), "h-" + i, i));
        }
        assertEquals(batch, Tail.size(entry.getValue().tail()), "journaled and past the hold, but fewer than a batch");

        for (int i = batch + 1; i <= batch + 3; i++) {
            entry.setValue(creditJournaled(ours, entry.getValue(), "h-" + i, i));
        }
        assertEquals(List.of("h-" + (batch + 1), "h-" + (batch + 2), "h-" + (batch + 3)), txIds(entry.getValue()),
                "a batch past the hold left at once; those recorded since the cutoff are still in the tail");

        ours.holdCutoff = Long.MAX_VALUE;
        int last = 2 * batch + 1;
        for (int i = batch + 4; i <= last; i++) {
            entry.setValue(creditJournaled(ours, entry.getValue(), "h-" + i, i));
        }
        assertEquals(List.of("h-" + last), txIds(entry.getValue()),
                "once the cutoff moves past them, the write that finds a batch trims all the journal holds");
        assertEquals(1_000 + last, entry.getValue().balance());
    }

    private static List<String> txIds(Account account) {
        return account.tailEntries(ID).stream().map(JournalEntry::txId).toList();
    }

    @Test
    void shouldHoldNoMoreThanMaxHeldEntriesInATail() {
        ours.holdCutoff = Long.MIN_VALUE;
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, Account.open(1_000, 0));
        int posted = JournalSettings.MAX_HELD + 5;
        for (int i = 1; i <= posted; i++) {
            entry.setValue(creditJournaled(ours, entry.getValue(), "m-" + i, i));
        }

        List<JournalEntry> tail = entry.getValue().tailEntries(ID);
        assertTrue(tail.size() <= JournalSettings.MAX_HELD, "held: " + tail.size());
        assertEquals("m-" + posted, tail.get(tail.size() - 1).txId());
        assertEquals(1_000 + posted, entry.getValue().balance());
    }

    @Test
    void shouldShedABatchBelowTheBoundOnceOverItSoThatTheNextWritesOnlyAppend() {
        ours.holdCutoff = Long.MIN_VALUE;
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, Account.open(1_000, 0));
        List<Integer> sizes = new ArrayList<>();
        int posted = JournalSettings.MAX_HELD + JournalSettings.TRIM_BATCH + 2;
        for (int i = 1; i <= posted; i++) {
            entry.setValue(creditJournaled(ours, entry.getValue(), "m-" + i, i));
            sizes.add(Tail.size(entry.getValue().tail()));
        }

        int bound = JournalSettings.MAX_HELD;
        assertEquals(bound, sizes.get(bound - 1), "held in full up to the bound");
        assertEquals(bound - JournalSettings.TRIM_BATCH, sizes.get(bound), "one write past it sheds a batch more");
        assertEquals(bound, sizes.get(bound + JournalSettings.TRIM_BATCH), "the next writes only append");
        assertEquals(bound - JournalSettings.TRIM_BATCH, sizes.get(bound + JournalSettings.TRIM_BATCH + 1));
        assertEquals(1_000 + posted, entry.getValue().balance());
    }

    @Test
    void shouldJoinEveryEntryOfASideWhoseTailLetEntriesGoOnceItsTailIsRestoredFromItsJournal() {
        Account before = shared();
        theirs.holdCutoff = Long.MIN_VALUE;
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, before);
        int posted = JournalSettings.MAX_HELD + 7;
        for (int i = 1; i <= posted; i++) {
            entry.setValue(creditJournaled(theirs, entry.getValue(), "t-" + i, i));
        }
        Account other = entry.getValue();
        int held = Tail.size(other.tail());
        assertTrue(held <= JournalSettings.MAX_HELD, "the oldest left the tail, journaled; held: " + held);
        List<JournalEntry> journaled = theirs.journal.entrySet().stream()
                .map(kept -> kept.getValue().entry(kept.getKey())).toList();

        Account restored = TailRestore.restored(ID, other, journaled);

        assertEquals(posted + 2, Tail.size(restored.tail()), "back to the shared entries, which precede them");
        assertEquals(other.version(), restored.version());
        assertEquals(other.balance(), restored.balance());
        AccountUnion.Result joined = AccountUnion.of(ID, before, restored, ours, 0);
        assertEquals(before.balance() + posted, joined.account().balance(), "every one of their credits counts");
        assertEquals(posted, joined.appended().size(), "the shared entries are known to our side");
        assertEquals(before.balance() + held,
                AccountUnion.of(ID, before, other, ours, 0).account().balance(),
                "without the restore the merge could only count what the tail held");
    }

    @Test
    void shouldRestoreOnlyTheRunOfSeqsDirectlyBeforeTheTail() {
        Account account = shared();
        Map.Entry<String, Account> entry = new AbstractMap.SimpleEntry<>(ID, account);
        for (int i = 1; i <= 4; i++) {
            entry.setValue(post(ours, entry.getValue(), "r-" + i, TxType.CREDIT, 1, NOW + i));
        }
        Account full = entry.getValue();
        List<JournalEntry> all = full.tailEntries(ID);
        assertEquals(List.of(3L, 4L, 5L, 6L), all.stream().map(JournalEntry::seq).toList());
        JournalEntry otherAccount = new JournalEntry("other", "x", TxType.CREDIT, 1, TxStatus.APPLIED, 1, NOW, 4,
                null);

        assertEquals(all, TailRestore.restored(ID, full.trimmedThrough(4),
                List.of(otherAccount, all.get(1), all.get(0))).tailEntries(ID),
                "seqs 3 and 4 put back in order before 5 and 6; another account's entry ignored");
        assertEquals(all.subList(2, 4), TailRestore.restored(ID, full.trimmedThrough(5), List.of(all.get(0), all.get(2)))
                .tailEntries(ID), "seq 5 put back; 4 is missing, so 3 is not");
        Account trimmed = full.trimmedThrough(4);
        assertEquals(trimmed, TailRestore.restored(ID, trimmed, List.of(all.get(0))), "nothing directly before: same");
        assertEquals(all, TailRestore.restored(ID, full.trimmedThrough(6), all).tailEntries(ID),
                "an emptied tail gets everything back");
    }
}
