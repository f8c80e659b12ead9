package io.partita.bench.peers;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PostgreSQL driver and its check, against the server {@code benchmarks/peers.sh} starts
 * ({@code PEERS_PG_URL}, or port 55432); skipped when none answers.
 */
class PeerPostgresTest {

    private String url;

    @BeforeEach
    void serverIsThere() {
        url = Options.parse(new String[0], System.getenv()).pgUrl();
        DriverManager.setLoginTimeout(2);
        try (Connection connection = DriverManager.getConnection(url)) {
            Assumptions.assumeTrue(connection.isValid(2), "PostgreSQL at " + url + " answers");
        } catch (SQLException e) {
            Assumptions.abort("no PostgreSQL at " + url + " (start one with benchmarks/peers.sh): " + e.getMessage());
        }
    }

    @Test
    void theCheckPassesForWhatTheClientsWereToldAndFailsOnceABalanceIsChangedBehindTheLedger() throws Exception {
        for (boolean synchronousCommit : new boolean[] {false, true}) {
            try (PostgresLedger ledger = new PostgresLedger(url, synchronousCommit)) {
                ledger.open(10, 100, 100);
                Tally tally = PeerDriving.drive(ledger, 10, 4, 150, 0.2);
                String checked = tally.verify(ledger.state(), 10);
                assertTrue(tally.rejected() > 0 && tally.repeats() > 0, checked);

                try (Connection connection = DriverManager.getConnection(url);
                     Statement statement = connection.createStatement()) {
                    statement.execute("UPDATE accounts SET balance = balance + 1 WHERE id = 3");
                }
                IllegalStateException failed = assertThrows(IllegalStateException.class,
                        () -> tally.verify(ledger.state(), 10));
                assertTrue(failed.getMessage().contains("1 accounts not equal"), failed.getMessage());
            }
        }
    }

    @Test
    void aTrialMeasuresTheServersCoresAndPassesItsCheck() throws Exception {
        try (PostgresLedger ledger = new PostgresLedger(url, false)) {
            Trial.Outcome outcome = Trial.run(ledger, 16, new Trial.Settings(2, 0, 0, 1, 100, 100, 0.55, 0.05));
            assertTrue(outcome.measured() > 0 && outcome.systemCores() > 0, outcome.toString());
        }
    }
}
