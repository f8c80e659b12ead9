package io.partita.bench.peers;

import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-process Partita driver and its check, on one real member in this JVM. */
class PeerPartitaTest {

    @Test
    void theCheckPassesForWhatTheClientsWereToldAndFailsOnceABalanceIsChangedBehindTheLedger() throws Exception {
        try (PartitaLedger ledger = new PartitaLedger(1)) {
            ledger.open(10, 100, 100);
            Tally tally = PeerDriving.drive(ledger, 10, 4, 150, 0.2);
            String checked = tally.verify(ledger.state(), 10);
            assertTrue(tally.rejected() > 0 && tally.repeats() > 0, checked);

            IMap<String, Account> accounts = AccountFeature.accounts(ledger.member());
            Account account = accounts.get(PartitaLedger.accountId(3));
            accounts.set(PartitaLedger.accountId(3), new Account(account.balance() + 1, account.overdraftLimit(),
                    account.version(), account.fence(), account.openingBalance(), account.tail(), account.jobs(),
                    account.conflicts()));
            IllegalStateException failed = assertThrows(IllegalStateException.class,
                    () -> tally.verify(ledger.state(), 10));
            assertTrue(failed.getMessage().contains("1 accounts not equal"), failed.getMessage());
        }
    }
}
