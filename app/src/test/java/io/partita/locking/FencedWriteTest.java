package io.partita.locking;

import io.partita.account.Account;
import io.partita.account.FakeLedgerHost;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Ledger;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fenced write as a plain function on an entry, before any lock or cluster is involved. */
class FencedWriteTest {

    private static final long NOW = 1_700_000_000_000L;

    private final FakeLedgerHost host = new FakeLedgerHost();

    /** What a holder decides after reading {@code read}: {@code txId} credits 100. */
    private static JournalEntry decided(Account read, String txId) {
        return Ledger.decide("a-1", read, TxRequest.of(txId, TxType.CREDIT, 100, NOW), id -> null).recorded();
    }

    /** The write of a holder that read {@code read} and decided to credit {@code txId}. */
    private FencedWrite write(long fence, Account read, String txId) {
        return new FencedWrite(fence, read.version(), decided(read, txId)).on(host);
    }

    private static Map.Entry<String, Account> entry(Account account) {
        return new AbstractMap.SimpleEntry<>("a-1", account);
    }

    @Test
    void shouldRecordTheDecidedEntryCarryingTheHolderFence() {
        Account read = Account.open(1_000, 0).withFence(3);
        var entry = entry(read);
        FencedWrite write = write(4, read, "t-1");

        assertEquals("WRITTEN", write.process(entry));
        assertEquals(1_100, entry.getValue().balance());
        assertEquals(4, entry.getValue().fence());
        assertEquals(1, host.queued.size(), "its entry goes to the journal writer");
        assertEquals(entry.getValue(), backupOf(write, read));
    }

    @Test
    void shouldRefuseAFenceLowerThanTheHighestTheAccountHasSeen() {
        // The first holder read the account under fence 5, then paused past its session; a newer holder took the
        // lock with fence 6 and wrote. The first holder's write arrives late.
        Account read = Account.open(1_000, 0).withFence(5);
        Account newer = read.record(decided(read, "newer")).withFence(6);

        assertRefused("STALE_FENCE", write(5, read, "stale"), newer);
    }

    @Test
    void shouldRefuseAStaleFenceEvenWhenTheHolderReadTheNewestAccount() {
        Account newer = Account.open(1_000, 0).withFence(9);
        var entry = entry(newer);

        assertEquals("STALE_FENCE", write(8, newer, "late").process(entry));
        assertEquals(newer, entry.getValue());
    }

    @Test
    void shouldAskTheHolderToReadAgainWhenAnUnlockedWriterMovedTheAccount() {
        Account read = Account.open(1_000, 0);
        Account moved = read.record(decided(read, "partitioned"));

        assertRefused("MOVED", write(1, read, "locked"), moved);
    }

    @Test
    void shouldLetOneHolderWriteTwiceWithItsFence() {
        Account read = Account.open(1_000, 0);
        var entry = entry(read);
        assertEquals("WRITTEN", write(2, read, "t-1").process(entry));
        Account second = entry.getValue();

        assertEquals("WRITTEN", write(2, second, "t-2").process(entry));
        assertEquals(1_200, entry.getValue().balance());
    }

    @Test
    void shouldAnswerNotFoundForAMissingAccountAndRefuseAnInvalidFence() {
        Account read = Account.open(0, 0);
        Map.Entry<String, Account> missing = new AbstractMap.SimpleEntry<>("a-1", null);

        assertEquals("NOT_FOUND", write(1, read, "t-1").process(missing));
        assertNull(missing.getValue());
        assertThrows(IllegalArgumentException.class, () -> new FencedWrite(0, 0, decided(read, "t-1")));
    }

    @Test
    void shouldRefuseToApplyATxIdTheJournalAlreadyHoldsEvenOnAnUnchangedAccount() {
        // The holder read the journal before t-1 arrived there and the account after t-1 had left it: it decided t-1
        // anew, and the account has not changed since its read. The owner finds t-1 in the journal.
        Account read = Account.open(1_000, 0);
        JournalEntry earlier = decided(read, "t-1");
        host.journal.put(new JournalKey("a-1", "t-1"), JournalRecord.of(earlier));

        assertRefused("DUPLICATE", write(1, read, "t-1"), read);
    }

    @Test
    void shouldRefuseToApplyATxIdTheAccountAlreadyHoldsInItsTail() {
        Account open = Account.open(1_000, 0);
        Account withT1 = open.record(decided(open, "t-1"));
        var entry = entry(withT1);
        // A holder that decided t-1 against the account as it is now (version 1), not knowing it holds t-1.
        JournalEntry again = new JournalEntry("a-1", "t-1", TxType.CREDIT, 100, decided(open, "t-1").status(),
                1_200, NOW, 2, null);

        assertEquals("DUPLICATE", new FencedWrite(1, 1, again).on(host).process(entry));
        assertEquals(withT1, entry.getValue());
    }

    /** {@code write} on the account {@code current} answers {@code answer}, changes nothing and sends no backup. */
    private static void assertRefused(String answer, FencedWrite write, Account current) {
        var entry = entry(current);
        assertEquals(answer, write.process(entry));
        assertEquals(current, entry.getValue());
        assertNull(write.getBackupProcessor());
    }

    private static Account backupOf(FencedWrite write, Account before) {
        var backup = entry(before);
        write.getBackupProcessor().process(backup);
        return backup.getValue();
    }
}
