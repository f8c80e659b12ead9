package io.partita.bench.peers;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Redis: one {@code EVALSHA} of {@code benchmarks/peers/ledger.lua} per transaction, the journal row written by the
 * same script, on the client's own connection (Jedis, blocking). Redis runs one script at a time, so the check, the
 * write and the journal row are atomic without a lock. Accounts are hashes {@code acct:<n>} (balance, opening,
 * overdraft); the journal is one hash {@code journal} (transaction id to {@code account|amount|outcome|balance}).
 *
 * <p>Which server is the caller's: {@code peers.sh} runs one without persistence and one with
 * {@code appendonly everysec} (each write appended to a file that is fsynced once a second).
 *
 * <p>Cores: the {@code redis-server} process (its main thread, which runs every script, and its background threads,
 * which fsync and rewrite the append-only file), from the pid the server reports.
 */
final class RedisLedger implements PeerLedger {

    static final String JOURNAL = "journal";
    static final String ACCOUNT_PREFIX = "acct:";

    /**
     * The admin connection's read timeout: the check script reads every account and the whole journal in one call
     * (about 250,000 rows after a spread trial), far past Jedis's default 2 s.
     */
    private static final int ADMIN_TIMEOUT_MILLIS = 300_000;

    private final String host;
    private final int port;
    private Jedis admin;
    private String postSha;
    private String checkSha;

    RedisLedger(String host, int port) {
        this.host = host;
        this.port = port;
    }

    @Override
    public void open(int accounts, long opening, long overdraft) {
        admin = new Jedis(host, port, ADMIN_TIMEOUT_MILLIS);
        admin.flushAll();
        Pipeline pipeline = admin.pipelined();
        for (int i = 0; i < accounts; i++) {
            pipeline.hset(ACCOUNT_PREFIX + i, Map.of("balance", String.valueOf(opening),
                    "opening", String.valueOf(opening), "overdraft", String.valueOf(overdraft)));
        }
        pipeline.sync();
        postSha = admin.scriptLoad(Resources.peerFile("ledger.lua"));
        checkSha = admin.scriptLoad(Resources.peerFile("check.lua"));
    }

    @Override
    public Session session(int client) {
        Jedis jedis = new Jedis(host, port);
        return new Session() {
            @Override
            public Answer post(Tx tx) {
                String account = String.valueOf(tx.account());
                Object reply = jedis.evalsha(postSha, List.of(ACCOUNT_PREFIX + account, JOURNAL),
                        List.of(tx.id(), account, String.valueOf(tx.amount())));
                return parse(tx, String.valueOf(reply));
            }

            @Override
            public void close() {
                jedis.close();
            }
        };
    }

    /** The script's answer, {@code account|amount|outcome|balance}. */
    static Answer parse(Tx tx, String record) {
        String[] fields = record.split("\\|", -1);
        if (fields.length != 4) {
            throw new IllegalStateException("ledger.lua answered '" + record + "' for " + tx);
        }
        return switch (fields[2]) {
            case "APPLIED" -> Answer.unsaid(true, Long.parseLong(fields[3]));
            case "REJECTED" -> Answer.unsaid(false, Long.parseLong(fields[3]));
            default -> throw new IllegalStateException("ledger.lua answered '" + record + "' for " + tx);
        };
    }

    @Override
    public Set<Long> serverPids() {
        return Set.of(Long.parseLong(info("server", "process_id")));
    }

    @Override
    public ServerState state() {
        @SuppressWarnings("unchecked")
        List<Long> check = (List<Long>) admin.evalsha(checkSha, List.of(JOURNAL), List.of(ACCOUNT_PREFIX));
        List<Long> figures = new ArrayList<>(check);
        return new ServerState(figures.get(6), figures.get(4), figures.get(5), figures.get(0), figures.get(2),
                figures.get(3), figures.get(1));
    }

    @Override
    public String describe() {
        String aof = info("persistence", "aof_enabled");
        return "Redis " + info("server", "redis_version") + ", appendonly " + ("1".equals(aof)
                ? admin.configGet("appendfsync").get("appendfsync") : "no") + ", save '"
                + admin.configGet("save").get("save") + "'";
    }

    private String info(String section, String field) {
        for (String line : admin.info(section).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalStateException("Redis INFO " + section + " has no " + field);
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
