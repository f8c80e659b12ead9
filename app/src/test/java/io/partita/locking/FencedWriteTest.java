package io.partita.locking;

import io.partita.account.Account;
import io.partita.account.JournalKey;
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

    /** What a holder decides after reading {@code read}: the account with {@code txId} credited by 100. */
    private static Account decided(Account read, String txId) {
        return Ledger.decide(read, TxRequest.of(txId, TxType.CREDIT, 100, NOW), key -> null, key -> false)
                .account();
    }

    /** The write of a holder that read {@code read} and decided to credit {@code txId}. */
    private static FencedWrite write(long fence, Account read, String txId) {
        return new FencedWrite(fence, read, decided(read, txId), txId);
    }

    private static Map.Entry<String, Account> entry(Account account) {
        return new AbstractMap.SimpleEntry<>(account.id(), account);
    }

    @Test
    void shouldStoreTheDecidedAccountCarryingTheHolderFence() {
        Account read = Account.open("a-1", 1_000, 0).withFence(3);
        var entry = entry(read);
        FencedWrite write = write(4, read, "t-1");

        assertEquals("WRITTEN", write.process(entry));
        assertEquals(1_100, entry.getValue().balance());
        assertEquals(4, entry.getValue().fence());
        assertEquals(entry.getValue(), backupOf(write, read));
    }

    @Test
    void shouldRefuseAFenceLowerThanTheHighestTheAccountHasSeen() {
        // The first holder read the account under fence 5, then paused past its session; a newer holder took the
        // lock with fence 6 and wrote. The first holder's write arrives late.
        Account read = Account.open("a-1", 1_000, 0).withFence(5);
        Account newer = decided(read, "newer").withFence(6);
        var entry = entry(newer);
        FencedWrite stale = write(5, read, "stale");

        assertEquals("STALE_FENCE", stale.process(entry));
        assertEquals(newer, entry.getValue());
        assertNull(stale.getBackupProcessor());
    }

    @Test
    void shouldRefuseAStaleFenceEvenWhenTheHolderReadTheNewestAccount() {
        Account newer = Account.open("a-1", 1_000, 0).withFence(9);
        var entry = entry(newer);

        assertEquals("STALE_FENCE", write(8, newer, "late").process(entry));
        assertEquals(newer, entry.getValue());
    }

    @Test
    void shouldAskTheHolderToReadAgainWhenAnUnlockedWriterMovedTheAccount() {
        Account read = Account.open("a-1", 1_000, 0);
        Account moved = decided(read, "partitioned");
        var entry = entry(moved);
        FencedWrite write = write(1, read, "locked");

        assertEquals("MOVED", write.process(entry));
        assertEquals(moved, entry.getValue());
        assertNull(write.getBackupProcessor());
    }

    @Test
    void shouldLetOneHolderWriteTwiceWithItsFence() {
        Account read = Account.open("a-1", 1_000, 0);
        var entry = entry(read);
        assertEquals("WRITTEN", write(2, read, "t-1").process(entry));
        Account second = entry.getValue();

        assertEquals("WRITTEN", write(2, second, "t-2").process(entry));
        assertEquals(1_200, entry.getValue().balance());
    }

    @Test
    void shouldAnswerNotFoundForAMissingAccountAndRefuseAnInvalidFence() {
        Account read = Account.open("a-1", 0, 0);
        Map.Entry<String, Account> missing = new AbstractMap.SimpleEntry<>("a-1", null);

        assertEquals("NOT_FOUND", new FencedWrite(1, read, read, "t-1").process(missing));
        assertNull(missing.getValue());
        assertThrows(IllegalArgumentException.class, () -> new FencedWrite(0, read, read, "t-1"));
    }

    @Test
    void shouldRefuseToApplyATxIdTheJournalAlreadyHoldsEvenOnAnUnchangedAccount() {
        // The holder read the journal before t-1 arrived there and the account after t-1 had left it: it decided t-1
        // anew, and the account has not changed since its read. The owner finds t-1 in the journal.
        Account read = Account.open("a-1", 1_000, 0);
        var entry = entry(read);
        FencedWrite write = write(1, read, "t-1");

        assertEquals("DUPLICATE", write.process(entry, key -> key.equals(new JournalKey("a-1", "t-1"))));
        assertEquals(read, entry.getValue());
        assertNull(write.getBackupProcessor());
    }

    @Test
    void shouldRefuseToApplyATxIdTheAccountAlreadyHoldsAmongItsRecentEntries() {
        Account withT1 = decided(Account.open("a-1", 1_000, 0), "t-1");
        var entry = entry(withT1);
        FencedWrite again = new FencedWrite(1, withT1, withT1, "t-1");

        assertEquals("DUPLICATE", again.process(entry, key -> false));
        assertEquals(withT1, entry.getValue());
    }

    @Test
    void shouldWriteWhenNeitherTheAccountNorTheJournalHoldsTheTxId() {
        Account read = Account.open("a-1", 1_000, 0);
        var entry = entry(read);

        assertEquals("WRITTEN", write(1, read, "t-1").process(entry, key -> !key.txId().equals("t-1")));
        assertEquals(1_100, entry.getValue().balance());
    }

    private static Account backupOf(FencedWrite write, Account before) {
        var backup = entry(before);
        write.getBackupProcessor().process(backup);
        return backup.getValue();
    }
}
