package io.partita.bench.peers;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Redis driver and its check, against the server without persistence {@code benchmarks/peers.sh} starts
 * ({@code PEERS_REDIS_PORT}, or 56379); skipped when none answers.
 */
class PeerRedisTest {

    private Options options;

    @BeforeEach
    void serverIsThere() {
        options = Options.parse(new String[0], System.getenv());
        try (Jedis jedis = new Jedis(options.redisHost(), options.redisPort(), 2_000)) {
            jedis.ping();
        } catch (RuntimeException e) {
            Assumptions.abort("no Redis at " + options.redisHost() + ":" + options.redisPort()
                    + " (start one with benchmarks/peers.sh): " + e.getMessage());
        }
    }

    @Test
    void theCheckPassesForWhatTheClientsWereToldAndFailsOnceABalanceIsChangedBehindTheLedger() throws Exception {
        try (RedisLedger ledger = new RedisLedger(options.redisHost(), options.redisPort())) {
            ledger.open(10, 100, 100);
            Tally tally = PeerDriving.drive(ledger, 10, 4, 150, 0.2);
            String checked = tally.verify(ledger.state(), 10);
            assertTrue(tally.rejected() > 0 && tally.repeats() > 0, checked);

            try (Jedis jedis = new Jedis(options.redisHost(), options.redisPort())) {
                jedis.hincrBy(RedisLedger.ACCOUNT_PREFIX + 3, "balance", 1);
            }
            IllegalStateException failed = assertThrows(IllegalStateException.class,
                    () -> tally.verify(ledger.state(), 10));
            assertTrue(failed.getMessage().contains("1 accounts not equal"), failed.getMessage());
        }
    }

    @Test
    void aTrialMeasuresTheServersCoresAndPassesItsCheck() throws Exception {
        try (RedisLedger ledger = new RedisLedger(options.redisHost(), options.redisPort())) {
            Trial.Outcome outcome = Trial.run(ledger, 16, new Trial.Settings(2, 0, 0, 1, 100, 100, 0.55, 0.05));
            assertTrue(outcome.measured() > 0 && outcome.systemCores() > 0, outcome.toString());
        }
    }
}
