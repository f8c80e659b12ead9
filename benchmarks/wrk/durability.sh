#!/usr/bin/env bash
# What the disk costs a node: one node started as the README says (java -jar app/target/partita.jar), once with
# PARTITA_DURABILITY=memory and once with flush (the default), each in an empty directory of its own; ACCOUNTS accounts
# opened one by one, then wrk posting single debits and credits with new txIds at 16 connections, for WARMUP_SECONDS
# (discarded: on 2 cores the JIT competes with the load, and a node answers at a third of its speed until its
# compilers are done, which takes a minute or two) and then RUN_SECONDS. Prints wrk's
# summary of the measured run for each mode. Needs wrk (Debian: apt-get install wrk) and a built jar
# (mvn -B -q package -DskipTests).
#   bash benchmarks/wrk/durability.sh     # ACCOUNTS=10000 WARMUP_SECONDS=90 RUN_SECONDS=30 CONNECTIONS=16 by default
# MODES="memory flush fsync" measures fsync as well (default: memory flush). SCRIPT=transfers.lua posts transfers
# instead (any script of benchmarks/wrk that needs only the accounts; default transactions.lua).
set -euo pipefail
cd "$(dirname "$0")/../.."
ACCOUNTS=${ACCOUNTS:-10000}
SECONDS_RUN=${RUN_SECONDS:-30}
WARMUP=${WARMUP_SECONDS:-90}
CONNECTIONS=${CONNECTIONS:-16}
SCRIPT=benchmarks/wrk/${SCRIPT:-transactions.lua}
PORT=${PORT:-18080}
JAR=$PWD/app/target/partita.jar
[ -f "$JAR" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install -y wrk" >&2; exit 1; }
for mode in ${MODES:-memory flush}; do
    dir=$(mktemp -d -t partita-wrk-XXXX)
    (cd "$dir" && PARTITA_DURABILITY=$mode PARTITA_CLUSTER_NAME="wrk-$mode-$$" PARTITA_DISCOVERY=tcp \
        PARTITA_MEMBERS=127.0.0.1 MICRONAUT_SERVER_PORT=$PORT exec java -jar "$JAR" > node.log 2>&1) &
    node=$!
    trap 'kill $node 2>/dev/null || true' EXIT
    for _ in $(seq 1 120); do
        curl -fs "localhost:$PORT/health/readiness" >/dev/null 2>&1 && break
        sleep 1
    done
    seq 0 $((ACCOUNTS - 1)) | xargs -P 8 -I{} curl -fs -o /dev/null -XPOST "localhost:$PORT/accounts" \
        -H 'Content-Type: application/json' -d '{"id":"w-{}","balance":1000000000}'
    ACCOUNTS=$ACCOUNTS wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$SCRIPT" \
        "http://127.0.0.1:$PORT" >/dev/null
    echo "== $mode, $(basename "$SCRIPT"): $ACCOUNTS accounts, $CONNECTIONS connections," \
        "${SECONDS_RUN}s after ${WARMUP}s of warm-up"
    ACCOUNTS=$ACCOUNTS wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency \
        -s "$SCRIPT" "http://127.0.0.1:$PORT" | grep -E "Requests/sec|Latency|50%|99%|Non-2xx"
    kill "$node"; wait "$node" 2>/dev/null || true
    rm -rf "$dir"
done
