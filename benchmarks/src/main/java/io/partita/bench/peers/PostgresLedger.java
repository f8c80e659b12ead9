package io.partita.bench.peers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/**
 * PostgreSQL: one call of the stored function {@code ledger_post} ({@code benchmarks/peers/ledger.sql}) per
 * transaction, as a prepared {@code SELECT outcome, balance FROM ledger_post(?, ?, ?)} on the client's own connection
 * in autocommit, so each call is one round trip and one database transaction.
 *
 * <p>{@code synchronousCommit} sets {@code synchronous_commit} for every session: off, a commit returns before its
 * WAL record is flushed to disk (a crash may lose the last moments of commits, never half of one: the closest
 * PostgreSQL comes to an in-memory store); on, it waits for the flush.
 *
 * <p>Cores: the postmaster and every process it started (backends, WAL writer, checkpointer, autovacuum), found
 * from a backend's parent.
 */
final class PostgresLedger implements PeerLedger {

    private final String url;
    private final boolean synchronousCommit;
    private Connection admin;

    PostgresLedger(String url, boolean synchronousCommit) {
        this.url = url;
        this.synchronousCommit = synchronousCommit;
    }

    private Connection connect() throws SQLException {
        Connection connection = DriverManager.getConnection(url);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET synchronous_commit = " + (synchronousCommit ? "on" : "off"));
        }
        connection.setAutoCommit(true);
        return connection;
    }

    @Override
    public void open(int accounts, long opening, long overdraft) throws SQLException {
        admin = connect();
        try (Statement statement = admin.createStatement()) {
            statement.execute(Resources.peerFile("ledger.sql"));
            statement.execute("INSERT INTO accounts SELECT i, " + opening + ", " + overdraft + ", " + opening
                    + " FROM generate_series(0, " + (accounts - 1) + ") i");
            statement.execute("ANALYZE accounts");
            statement.execute("CHECKPOINT");
        }
    }

    @Override
    public Session session(int client) throws SQLException {
        Connection connection = connect();
        PreparedStatement post = connection.prepareStatement("SELECT outcome, balance FROM ledger_post(?, ?, ?)");
        return new Session() {
            @Override
            public Answer post(Tx tx) throws SQLException {
                post.setString(1, tx.id());
                post.setLong(2, tx.account());
                post.setLong(3, tx.amount());
                try (ResultSet result = post.executeQuery()) {
                    if (!result.next()) {
                        throw new IllegalStateException("ledger_post answered no row for " + tx);
                    }
                    String outcome = result.getString(1);
                    long balance = result.getLong(2);
                    return switch (outcome) {
                        case "APPLIED" -> Answer.unsaid(true, balance);
                        case "REJECTED" -> Answer.unsaid(false, balance);
                        default -> throw new IllegalStateException("ledger_post answered " + outcome + " for " + tx);
                    };
                }
            }

            @Override
            public void close() throws SQLException {
                connection.close();
            }
        };
    }

    @Override
    public Set<Long> serverPids() throws SQLException {
        long backend;
        try (Statement statement = admin.createStatement();
             ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
            result.next();
            backend = result.getLong(1);
        }
        ProcessHandle postmaster = ProcessHandle.of(backend).flatMap(ProcessHandle::parent).orElseThrow(() ->
                new IllegalStateException("PostgreSQL's backend " + backend + " is not visible from here: is the "
                        + "server on another machine or in a container? Its cores cannot be counted."));
        Set<Long> pids = new HashSet<>();
        pids.add(postmaster.pid());
        postmaster.descendants().forEach(process -> pids.add(process.pid()));
        return pids;
    }

    @Override
    public ServerState state() throws SQLException {
        try (Statement statement = admin.createStatement()) {
            long accounts;
            long balances;
            long openings;
            try (ResultSet result = statement.executeQuery(
                    "SELECT count(*), coalesce(sum(balance), 0), coalesce(sum(opening), 0) FROM accounts")) {
                result.next();
                accounts = result.getLong(1);
                balances = result.getLong(2);
                openings = result.getLong(3);
            }
            long rows;
            long rejected;
            long applied;
            // A row without an outcome (a claim whose transaction never finished) is not a journal row.
            try (ResultSet result = statement.executeQuery("SELECT count(outcome), "
                    + "count(*) FILTER (WHERE outcome = 'REJECTED'), "
                    + "coalesce(sum(amount) FILTER (WHERE outcome = 'APPLIED'), 0) FROM journal")) {
                result.next();
                rows = result.getLong(1);
                rejected = result.getLong(2);
                applied = result.getLong(3);
            }
            long mismatched;
            try (ResultSet result = statement.executeQuery("SELECT count(*) FROM ledger_mismatches")) {
                result.next();
                mismatched = result.getLong(1);
            }
            return new ServerState(accounts, balances, openings, rows, rejected, applied, mismatched);
        }
    }

    @Override
    public String describe() throws SQLException {
        try (Statement statement = admin.createStatement();
             ResultSet result = statement.executeQuery("SELECT split_part(version(), ' ', 2), "
                     + "current_setting('synchronous_commit'), current_setting('shared_buffers'), "
                     + "current_setting('fsync')")) {
            result.next();
            return "PostgreSQL " + result.getString(1) + ", synchronous_commit=" + result.getString(2)
                    + ", shared_buffers=" + result.getString(3) + ", fsync=" + result.getString(4);
        }
    }

    @Override
    public void close() throws SQLException {
        if (admin != null) {
            admin.close();
        }
    }
}
