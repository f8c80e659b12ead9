package io.partita.locking;

import io.partita.account.Account;
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

    private static Map.Entry<String, Account> entry(Account account) {
        return new AbstractMap.SimpleEntry<>(account.id(), account);
    }

    @Test
    void shouldStoreTheDecidedAccountCarryingTheHolderFence() {
        Account read = Account.open("a-1", 1_000, 0).withFence(3);
        var entry = entry(read);
        FencedWrite write = new FencedWrite(4, read, decided(read, "t-1"));

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
        FencedWrite stale = new FencedWrite(5, read, decided(read, "stale"));

        assertEquals("STALE_FENCE", stale.process(entry));
        assertEquals(newer, entry.getValue());
        assertNull(stale.getBackupProcessor());
    }

    @Test
    void shouldRefuseAStaleFenceEvenWhenTheHolderReadTheNewestAccount() {
        Account newer = Account.open("a-1", 1_000, 0).withFence(9);
        var entry = entry(newer);

        assertEquals("STALE_FENCE", new FencedWrite(8, newer, decided(newer, "late")).process(entry));
        assertEquals(newer, entry.getValue());
    }

    @Test
    void shouldAskTheHolderToReadAgainWhenAnUnlockedWriterMovedTheAccount() {
        Account read = Account.open("a-1", 1_000, 0);
        Account moved = decided(read, "partitioned");
        var entry = entry(moved);
        FencedWrite write = new FencedWrite(1, read, decided(read, "locked"));

        assertEquals("MOVED", write.process(entry));
        assertEquals(moved, entry.getValue());
        assertNull(write.getBackupProcessor());
    }

    @Test
    void shouldLetOneHolderWriteTwiceWithItsFence() {
        Account read = Account.open("a-1", 1_000, 0);
        var entry = entry(read);
        assertEquals("WRITTEN", new FencedWrite(2, read, decided(read, "t-1")).process(entry));
        Account second = entry.getValue();

        assertEquals("WRITTEN", new FencedWrite(2, second, decided(second, "t-2")).process(entry));
        assertEquals(1_200, entry.getValue().balance());
    }

    @Test
    void shouldAnswerNotFoundForAMissingAccountAndRefuseAnInvalidFence() {
        Account read = Account.open("a-1", 0, 0);
        Map.Entry<String, Account> missing = new AbstractMap.SimpleEntry<>("a-1", null);

        assertEquals("NOT_FOUND", new FencedWrite(1, read, read).process(missing));
        assertNull(missing.getValue());
        assertThrows(IllegalArgumentException.class, () -> new FencedWrite(0, read, read));
    }

    private static Account backupOf(FencedWrite write, Account before) {
        var backup = entry(before);
        write.getBackupProcessor().process(backup);
        return backup.getValue();
    }
}
