package io.partita.account;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** An account as the disk keeps it comes back field for field, and a value in an unknown format is refused. */
class LedgerDiskTest {

    @Test
    void shouldReadBackEveryFieldOfAnAccount() {
        Account opened = Account.open(5_000, 200);
        JournalEntry debit = new JournalEntry("a-1", "tx-1", TxType.DEBIT, 700, TxStatus.APPLIED, 4_300, 1_000, 1,
                null);
        JournalEntry merged = new JournalEntry("a-1", "tx-2", TxType.CREDIT, 50, TxStatus.REJECTED, 4_300, 1_001, 2,
                "ref-9", true);
        Account account = opened.record(debit).merged(merged, 4_300).withFence(17).withJob("fee#3").withConflict();

        Account back = LedgerDisk.decode(LedgerDisk.encode(account));

        assertEquals(account, back);
        assertEquals(4_300, back.balance());
        assertEquals(200, back.overdraftLimit());
        assertEquals(2, back.version());
        assertEquals(17, back.fence());
        assertEquals(5_000, back.openingBalance());
        assertEquals(1, back.conflicts());
        assertEquals(List.of("fee#3"), back.jobs());
        assertEquals(List.of(debit, merged), back.tailEntries("a-1"));
        // What a write-through takes from the tail: only the entries the change added, with their seqs.
        assertEquals(List.of(merged), Tail.newest("a-1", account.tail(), account.version(), 1));
        assertEquals(List.of(debit, merged), Tail.newest("a-1", account.tail(), account.version(), 5));
    }

    @Test
    void shouldBringAnAccountBackWithItsHistoryInItsTailUpToTheFirstGap() {
        JournalEntry first = new JournalEntry("a-1", "tx-1", TxType.CREDIT, 10, TxStatus.APPLIED, 110, 1_000, 1, null);
        JournalEntry second = new JournalEntry("a-1", "tx-2", TxType.DEBIT, 5, TxStatus.APPLIED, 105, 1_001, 2, null);
        JournalEntry third = new JournalEntry("a-1", "tx-3", TxType.DEBIT, 500, TxStatus.REJECTED, 105, 1_002, 3,
                null);
        // On disk: the account, whose tail kept only its newest entry, and its history in the journal family.
        Account account = Account.open(100, 0).record(first).record(second).record(third).trimmedThrough(2);
        assertEquals(List.of(third), account.tailEntries("a-1"));

        Account back = LedgerDisk.withHistory("a-1", account, Map.of(1L, first, 2L, second, 3L, third));
        assertEquals(List.of(first, second, third), back.tailEntries("a-1"));
        assertEquals(account.balance(), back.balance());
        assertEquals(account.version(), back.version());

        // An entry gone past the retention leaves a gap: the tail starts after it.
        assertEquals(List.of(third), LedgerDisk.withHistory("a-1", account, Map.of(1L, first)).tailEntries("a-1"));

        // An account kept without its tail whose newest entry the history lacks (read before that entry's write): its
        // tail cannot end at its version, so it comes back as it is, never with a tail that skips an entry.
        Account bare = Account.open(100, 0).record(first).record(second).record(third).trimmedThrough(3);
        Account unchanged = LedgerDisk.withHistory("a-1", bare, Map.of(1L, first, 2L, second));
        assertEquals(List.of(), unchanged.tailEntries("a-1"));
        assertEquals(bare.version(), unchanged.version());
    }

    @Test
    void shouldRefuseAValueInAnUnknownFormat() {
        byte[] value = LedgerDisk.encode(Account.open(1, 0));
        value[0] = 9;
        assertThrows(IllegalStateException.class, () -> LedgerDisk.decode(value));
    }
}
