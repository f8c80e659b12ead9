#!/usr/bin/env bash
# A node at its limit against PostgreSQL at its limit, from C load generators that are not themselves the bottleneck:
# wrk posting single debits and credits (new txIds) to one node (benchmarks/wrk/durability.sh, memory and flush), and
# pgbench calling the peers' ledger function (benchmarks/peers/ledger.sql, ledger_post: claim the txId, apply within
# the overdraft limit, record the outcome) with the same accounts, connections and seconds, with
# synchronous_commit off and on. Run it through peers.sh, which starts PostgreSQL (and stops it after):
#   bash benchmarks/peers.sh bash benchmarks/wrk/edge.sh      # ACCOUNTS=10000 RUN_SECONDS=30 CONNECTIONS=16
# Needs wrk and pgbench (Debian: apt-get install wrk postgresql-contrib) and a built jar (mvn -B -q package
# -DskipTests). Prints each run's requests (transactions) per second and latency percentiles.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PEERS_PG_PORT:?run through benchmarks/peers.sh, which starts PostgreSQL}"
ACCOUNTS=${ACCOUNTS:-10000}
SECONDS_RUN=${RUN_SECONDS:-30}
CONNECTIONS=${CONNECTIONS:-16}
command -v pgbench >/dev/null || pgbench=$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -1)
pgbench=${pgbench:-pgbench}
psql_() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PEERS_PG_PORT" -U partita -d postgres "$@"; }

bash benchmarks/wrk/durability.sh

script=$(mktemp -t partita-pgbench-XXXX.sql)
trap 'rm -f "$script"' EXIT
# A new txId per call (client id and a 62-bit random number), a debit or a credit of 1 on a uniform account.
cat >"$script" <<'EOF'
\set account random(0, :accounts - 1)
\set amount random(0, 1) * 2 - 1
\set tx random(1, 4611686018427387903)
SELECT * FROM ledger_post(:client_id || '-' || :tx, :account, :amount);
EOF
for commit in off on; do
    psql_ -f benchmarks/peers/ledger.sql
    psql_ -c "INSERT INTO accounts SELECT i, 1000000000, 0, 1000000000 FROM generate_series(0, $ACCOUNTS - 1) i"
    psql_ -c "VACUUM ANALYZE"
    echo "== PostgreSQL, synchronous_commit=$commit: $ACCOUNTS accounts, $CONNECTIONS connections, ${SECONDS_RUN}s"
    PGOPTIONS="-c synchronous_commit=$commit" "$pgbench" -n -M prepared -h 127.0.0.1 -p "$PEERS_PG_PORT" -U partita \
        -c "$CONNECTIONS" -j 2 -T "$SECONDS_RUN" -D accounts="$ACCOUNTS" -f "$script" -r postgres \
        | grep -E "^tps|latency average|failed"
    echo "   journal rows: $(psql_ -At -c "SELECT count(*) FROM journal WHERE outcome IS NOT NULL")," \
        "accounts not equal to opening + applied: $(psql_ -At -c "SELECT count(*) FROM ledger_mismatches")"
done
