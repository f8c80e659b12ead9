package io.partita.account;

import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies of one account from several disks, put back in any order: the cluster's account takes each transaction once,
 * its balance always agrees with its entries, and a transaction only one copy has (written on the owner's disk when
 * every node stopped, before its backup had it) is added, not lost and not answered without its effect.
 */
class RecoverAccountsTest {

    private static final String ID = "a-1";

    @Test
    void shouldTakeADiskCopyAsItIsWhenTheClusterHasNone() {
        FakeLedgerHost host = new FakeLedgerHost();
        Account onDisk = Account.open(100, 0).record(entry("tx-1", TxType.DEBIT, 30, 70, 1));
        Map.Entry<String, Account> account = new AbstractMap.SimpleEntry<>(ID, null);

        assertNull(recover(host, account, onDisk));
        assertEquals(onDisk, account.getValue());
    }

    @Test
    void shouldAddWhatOnlyTheCopyThatIsAheadHasWhateverCameSince() {
        FakeLedgerHost host = new FakeLedgerHost();
        JournalEntry shared = entry("tx-1", TxType.DEBIT, 30, 70, 1);
        // The owner's disk has tx-2; the backup's, put back first, does not; then a client writes tx-3.
        Account behind = Account.open(100, 0).record(shared);
        Account ahead = behind.record(entry("tx-2", TxType.DEBIT, 20, 50, 2));
        Map.Entry<String, Account> account = new AbstractMap.SimpleEntry<>(ID, null);
        recover(host, account, behind);
        account.setValue(account.getValue().record(entry("tx-3", TxType.CREDIT, 5, 75, 2)));

        recover(host, account, ahead);
        recover(host, account, behind);

        Account joined = account.getValue();
        assertEquals(55, joined.balance(), "100 - 30 + 5 - 20: tx-2 moved the balance once");
        assertEquals(3, joined.version());
        List<String> txIds = joined.tailEntries(ID).stream().map(JournalEntry::txId).toList();
        assertEquals(List.of("tx-1", "tx-3", "tx-2"), txIds);
        assertTrue(joined.recorded(ID, "tx-2").merged(), "tx-2 came from another copy");
    }

    @Test
    void shouldReportAnAccountThatTwoHistoriesOfOneIdLeaveBelowItsLimit() {
        // The partition's loss was accepted, the id opened again and credited; then a disk with the first account's
        // history came back. Both histories are kept (nothing acknowledged is dropped), and the join is reported.
        FakeLedgerHost host = new FakeLedgerHost();
        Account reopened = Account.open(5, 0).record(entry("after-lost-1", TxType.CREDIT, 3, 8, 1));
        Account first = Account.open(100, 0).record(entry("old-1", TxType.DEBIT, 90, 10, 1))
                .record(entry("old-2", TxType.DEBIT, 10, 0, 2));
        Map.Entry<String, Account> account = new AbstractMap.SimpleEntry<>(ID, reopened);

        recover(host, account, first);

        assertEquals(-92, account.getValue().balance(), "8 - 90 - 10");
        assertEquals(List.of(ID), host.conflicts);
        recover(host, account, first);
        assertEquals(List.of(ID), host.conflicts, "run again, it adds nothing and reports nothing more");
    }

    private static Object recover(FakeLedgerHost host, Map.Entry<String, Account> entry, Account onDisk) {
        return new RecoverAccounts(Map.of(ID, onDisk)).on(host).process(entry);
    }

    private static JournalEntry entry(String txId, TxType type, long amount, long balanceAfter, long seq) {
        return new JournalEntry(ID, txId, type, amount, TxStatus.APPLIED, balanceAfter, 1_000 + seq, seq, null);
    }
}
