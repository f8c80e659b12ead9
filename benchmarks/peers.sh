#!/usr/bin/env bash
# Starts the peers Partita is compared with (issue 15) on loopback, runs a command against them, and stops them.
#
#   bash benchmarks/peers.sh                 # starts them, runs the self-check below, stops them
#   bash benchmarks/peers.sh CMD [ARGS...]   # starts them, runs CMD with the PEERS_* variables set, stops them
#
# - PostgreSQL and Redis come from Debian's packages (apt-get install when missing; needs root then).
# - Each server runs in a temporary directory on its own port, not as the system service, and is stopped and the
#   directory removed on exit (also on Ctrl-C or failure).
# - PostgreSQL: one server with synchronous_commit=off as its default; a client that wants it on sets it per
#   session (SET synchronous_commit = on), so both configurations run against the same server.
# - Redis: one server without persistence (--save '' --appendonly no) and one with appendonly everysec.
# - ledger.sql (a stored function per transaction) and ledger.lua (one script per transaction, journal in it) are
#   the peers' implementations of the ledger; the self-check loads them and checks a run's outcome.
#
# Ports: PEERS_PG_PORT (55432), PEERS_REDIS_PORT (56379), PEERS_REDIS_AOF_PORT (56380).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pg_port=${PEERS_PG_PORT:-55432}
redis_port=${PEERS_REDIS_PORT:-56379}
redis_aof_port=${PEERS_REDIS_AOF_PORT:-56380}

install_missing() {
    local missing=()
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
    command -v redis-server >/dev/null || missing+=(redis-server)
    if ((${#missing[@]})); then
        echo "peers: installing ${missing[*]} from Debian's packages" >&2
        # A fresh machine may have no package lists yet.
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 \
            || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; }
    fi
}

install_missing
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/partita-peers.XXXXXX)
chmod 755 "$work"

# PostgreSQL refuses to run as root: as root, run it as the postgres user the Debian package creates.
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_all() {
    set +e
    [ -f "$work/pg/postmaster.pid" ] && as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1
    for port in "$redis_port" "$redis_aof_port"; do
        redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1
    done
    rm -rf "$work"
}
trap stop_all EXIT

mkdir "$work/pg" "$work/redis" "$work/redis-aof"
[ "$(id -u)" = 0 ] && chown postgres: "$work/pg"
as_pg "$pg_bin/initdb" -D "$work/pg" -U partita --auth=trust -E UTF8 --no-sync >"$work/initdb.log"
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -w -l "$work/pg/server.log" -o "-p $pg_port -k $work/pg \
    -c listen_addresses=127.0.0.1 -c synchronous_commit=off -c max_connections=100 -c shared_buffers=256MB" \
    start >/dev/null
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work/redis" \
    --daemonize yes --logfile "$work/redis/server.log"
redis-server --port "$redis_aof_port" --bind 127.0.0.1 --save '' --appendonly yes --appendfsync everysec \
    --dir "$work/redis-aof" --daemonize yes --logfile "$work/redis-aof/server.log"
for port in "$redis_port" "$redis_aof_port"; do
    until redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
done

export PEERS_PG_URL="jdbc:postgresql://127.0.0.1:$pg_port/postgres?user=partita"
export PEERS_PG_PORT=$pg_port PEERS_REDIS_PORT=$redis_port PEERS_REDIS_AOF_PORT=$redis_aof_port
# The server processes, so that a tool can read their CPU time from /proc/<pid>/stat (cores used).
export PEERS_PG_PIDFILE="$work/pg/postmaster.pid"
export PEERS_REDIS_PIDS="$(redis-cli -p "$redis_port" info server | tr -d '\r' | sed -n 's/^process_id://p') \
$(redis-cli -p "$redis_aof_port" info server | tr -d '\r' | sed -n 's/^process_id://p')"
echo "peers: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port," \
    "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) on 127.0.0.1:$redis_port and" \
    "127.0.0.1:$redis_aof_port (appendonly everysec), in $work" >&2

psql_() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U partita -d postgres "$@"; }

# Loads the ledgers, runs 4 concurrent clients x 500 transactions over 10 accounts (every 10th id a repeat of an
# earlier one, debits large enough to hit the overdraft limit), and checks balances == opening + applied and
# journal rows == distinct tx ids on each system and configuration.
self_check() {
    psql_ -f "$here/peers/ledger.sql"
    psql_ -c "INSERT INTO accounts SELECT i, 100, 50, 100 FROM generate_series(0, 9) i"
    local lua_sha check_sha
    for port in "$redis_port" "$redis_aof_port"; do
        redis-cli -p "$port" flushall >/dev/null
        for i in $(seq 0 9); do
            redis-cli -p "$port" hset "acct:$i" balance 100 opening 100 overdraft 50 >/dev/null
        done
        lua_sha=$(redis-cli -p "$port" script load "$(cat "$here/peers/ledger.lua")")
        check_sha=$(redis-cli -p "$port" script load "$(cat "$here/peers/check.lua")")
    done
    # Each client's transactions as a psql script and a redis-cli script, then all clients at once.
    local client i n account amount
    for client in 0 1 2 3; do
        [ $((client % 2)) = 1 ] && echo "SET synchronous_commit = on;" >"$work/c$client.sql"
        for i in $(seq 0 499); do
            n=$i; [ $((i % 10)) = 9 ] && n=$((i - 5))    # every 10th id repeats an earlier id of this client
            account=$(((n * 7 + client) % 10)); amount=$(((n % 3) == 0 ? 40 : -70))
            echo "SELECT * FROM ledger_post('c$client-$n', $account, $amount);" >>"$work/c$client.sql"
            echo "EVALSHA $lua_sha 2 acct:$account journal c$client-$n $account $amount" >>"$work/c$client.redis"
        done
    done
    for client in 0 1 2 3; do
        psql_ -f "$work/c$client.sql" >/dev/null &
        for port in "$redis_port" "$redis_aof_port"; do
            redis-cli -p "$port" <"$work/c$client.redis" >/dev/null &
        done
    done
    wait
    local distinct=$((4 * 450)) failed=0
    local pg_rows pg_bad pg_rejected
    pg_rows=$(psql_ -At -c "SELECT count(*) FROM journal WHERE outcome IS NOT NULL")
    pg_bad=$(psql_ -At -c "SELECT count(*) FROM ledger_mismatches")
    pg_rejected=$(psql_ -At -c "SELECT count(*) FROM journal WHERE outcome = 'REJECTED'")
    echo "PostgreSQL: journal rows $pg_rows (distinct tx ids $distinct), rejected $pg_rejected," \
        "accounts not equal to opening + applied: $pg_bad"
    [ "$pg_rows" = "$distinct" ] && [ "$pg_bad" = 0 ] && [ "$pg_rejected" -gt 0 ] || failed=1
    for port in "$redis_port" "$redis_aof_port"; do
        local out rows bad
        out=$(redis-cli -p "$port" evalsha "$check_sha" 1 journal acct:)
        rows=$(echo "$out" | sed -n 1p); bad=$(echo "$out" | sed -n 2p)
        echo "Redis :$port: journal rows $rows (distinct tx ids $distinct)," \
            "accounts not equal to opening + applied: $bad"
        [ "$rows" = "$distinct" ] && [ "$bad" = 0 ] || failed=1
    done
    if ((failed)); then echo "peers: self-check FAILED" >&2; return 1; fi
    echo "peers: self-check passed"
}

if (($#)); then "$@"; else self_check; fi
