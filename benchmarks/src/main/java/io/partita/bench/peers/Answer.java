package io.partita.bench.peers;

/**
 * What a system answered for one {@link Tx}.
 *
 * @param applied whether the amount was applied (false: rejected for the overdraft limit)
 * @param balance the account's balance after the transaction, as its first answer gave it
 * @param replay  whether the system said the answer is a replay; PostgreSQL's function and the Lua script answer a
 *                repeat exactly as they answered the first time and do not say, nor does Partita's flag after a
 *                retry
 */
record Answer(boolean applied, long balance, Replay replay) {

    enum Replay {
        /** The system says this is the transaction's first answer. */
        FIRST,
        /** The system says this answer replays an earlier one. */
        REPLAYED,
        /** The system does not say, or its word means nothing (the answer to a retry). */
        UNSAID
    }

    static Answer unsaid(boolean applied, long balance) {
        return new Answer(applied, balance, Replay.UNSAID);
    }
}
