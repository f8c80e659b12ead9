package io.partita.bench.peers;

import java.sql.SQLException;
import java.util.Set;

/**
 * One system under test, holding one ledger: accounts with an opening balance and an overdraft limit, a journal with
 * one row per transaction id. Every system answers the same {@link Tx} the same way:
 * <ul>
 *   <li>a new id is applied when the balance stays at or above minus the overdraft limit, else rejected; either way
 *       it is recorded in the journal, with the balance after it;</li>
 *   <li>a repeated id (same account, same amount) answers what its first answer said and changes nothing.</li>
 * </ul>
 *
 * <p>Lifecycle, from the tool's main thread: {@link #open} once, then one {@link #session} per client thread (each
 * used by that thread alone), then, once every session is closed, {@link #state} for the correctness check, then
 * {@link #close}.
 */
interface PeerLedger extends AutoCloseable {

    /** Starts or connects to the system and opens {@code accounts} accounts (0 .. accounts - 1), nothing else. */
    void open(int accounts, long opening, long overdraft) throws Exception;

    /** A client's own connection for client thread {@code client} (0-based). */
    Session session(int client) throws Exception;

    /**
     * The processes doing the system's work, whose CPU time is the system's, or empty when the system runs in this
     * JVM ({@link #inProcess}). Asked at the start and at the end of the measured window: processes a server starts
     * during it (a PostgreSQL backend, an autovacuum worker) are counted from the end's answer.
     */
    Set<Long> serverPids() throws Exception;

    /** Whether the system runs inside this JVM: its CPU time is then this process's minus the client threads'. */
    default boolean inProcess() {
        return false;
    }

    /**
     * Operations the system's server processes sent one another so far (Partita's
     * {@code partita_member_operations_received_total}, summed over its nodes), or -1 for a system that has none to
     * count. Read at the start and end of the measured window, and divided by its transactions.
     */
    default long memberOperations() throws Exception {
        return -1;
    }

    /** What the system holds, read after every session has finished. */
    ServerState state() throws Exception;

    /** Versions and settings worth printing beside the figures (server version, configuration). */
    String describe() throws Exception;

    @Override
    void close() throws SQLException;

    /** One client's connection; not shared between threads. */
    interface Session extends AutoCloseable {

        /** Posts one transaction and waits for its answer; throws on anything but an applied or rejected answer. */
        Answer post(Tx tx) throws Exception;

        /** Calls re-sent after a transient failure (a 503 from Partita), same id, by all the ledger's sessions. */
        default long retries() {
            return 0;
        }

        @Override
        void close() throws SQLException;
    }
}
