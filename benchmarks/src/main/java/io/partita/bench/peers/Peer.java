package io.partita.bench.peers;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The systems the tool can run, by the name {@code --systems} takes. */
enum Peer {

    PARTITA_1("partita-1", "Partita, 1 member in-process") {
        @Override
        PeerLedger ledger(Options options) {
            return new PartitaLedger(1);
        }
    },
    PARTITA_3("partita-3", "Partita, 3 members in-process") {
        @Override
        PeerLedger ledger(Options options) {
            return new PartitaLedger(3);
        }
    },
    PARTITA_HTTP_1("partita-http-1", "Partita over HTTP, 1 node process") {
        @Override
        PeerLedger ledger(Options options) {
            return new PartitaHttpLedger(1, true, options.partitaJar(), options.logs());
        }
    },
    PARTITA_HTTP_3("partita-http-3", "Partita over HTTP, 3 node processes, calls to the owner") {
        @Override
        PeerLedger ledger(Options options) {
            return new PartitaHttpLedger(3, true, options.partitaJar(), options.logs());
        }
    },
    PARTITA_HTTP_3_SPREAD("partita-http-3-spread", "Partita over HTTP, 3 node processes, calls spread (forwarded)") {
        @Override
        PeerLedger ledger(Options options) {
            return new PartitaHttpLedger(3, false, options.partitaJar(), options.logs());
        }
    },
    POSTGRES_ASYNC("postgres-async", "PostgreSQL, synchronous_commit=off") {
        @Override
        PeerLedger ledger(Options options) {
            return new PostgresLedger(options.pgUrl(), false);
        }
    },
    POSTGRES_SYNC("postgres-sync", "PostgreSQL, synchronous_commit=on") {
        @Override
        PeerLedger ledger(Options options) {
            return new PostgresLedger(options.pgUrl(), true);
        }
    },
    REDIS("redis", "Redis, no persistence") {
        @Override
        PeerLedger ledger(Options options) {
            return new RedisLedger(options.redisHost(), options.redisPort());
        }
    },
    REDIS_AOF("redis-aof", "Redis, appendonly everysec") {
        @Override
        PeerLedger ledger(Options options) {
            return new RedisLedger(options.redisHost(), options.redisAofPort());
        }
    };

    /** What the ratios are taken against. */
    static final Peer BASELINE = PARTITA_1;

    final String id;
    final String label;

    Peer(String id, String label) {
        this.id = id;
        this.label = label;
    }

    abstract PeerLedger ledger(Options options);

    static Peer of(String id) {
        return Arrays.stream(values()).filter(peer -> peer.id.equals(id.trim().toLowerCase(Locale.ROOT)))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("unknown system '" + id + "'; known: "
                        + ids(List.of(values()))));
    }

    static String ids(List<Peer> peers) {
        return peers.stream().map(peer -> peer.id).collect(Collectors.joining(","));
    }
}
