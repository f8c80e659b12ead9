#!/usr/bin/env bash
# Does a node's memory stay bounded under sustained load? One node started as the README says (java -jar
# app/target/partita.jar, durability flush by default) with -Xmx1g, ACCOUNTS accounts, then wrk posting batches of
# 1,000 new debits and credits at 4 connections for MINUTES minutes. Every 30 s it prints the transactions recorded
# (partita_journal_written_total and partita_journal_skipped_total: every entry recorded reaches the journal writer,
# which copies it to the journal map or skips it, so a refused batch counts nothing), the rate since the last sample,
# the live heap (after the last collection of the old generation, which decides refusals) and the heap after the last
# collection of any kind (a young one leaves the old generation's garbage in it), both from /health/readiness, and at
# the end: whether the node ran out of memory, the highest of each heap level, the rate of the last 5 minutes against
# the first 5 (of the last half against the first in a shorter run), and whether the whole history of a few accounts
# still pages through
# GET /accounts/{id}/transactions (as many entries as the account's version). Needs wrk and a built jar.
#   bash benchmarks/wrk/memory.sh      # MINUTES=20 ACCOUNTS=10000 MODE=flush HEAP=1g by default
# JVM_OPTS adds options to the node's JVM (a GC log, say).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../nodes.sh
. benchmarks/nodes.sh
MINUTES=${MINUTES:-20}
ACCOUNTS=${ACCOUNTS:-10000}
MODE=${MODE:-flush}
HEAP=${HEAP:-1g}
JVM_OPTS=${JVM_OPTS:-}
PORT=${PORT:-18080}
JAR=$PWD/app/target/partita.jar
[ -f "$JAR" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install -y wrk" >&2; exit 1; }
dir=$(mktemp -d -t partita-memory-XXXX)
(cd "$dir" && PARTITA_DURABILITY=$MODE PARTITA_CLUSTER_NAME="memory-$$" PARTITA_DISCOVERY=tcp \
    PARTITA_MEMBERS=127.0.0.1 MICRONAUT_SERVER_PORT=$PORT exec java -Xmx"$HEAP" -XX:+ExitOnOutOfMemoryError \
    $JVM_OPTS -jar "$JAR" > node.log 2>&1) &
node=$!
trap 'kill $node 2>/dev/null || true; kill $load 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
    curl -fs "localhost:$PORT/health/readiness" >/dev/null 2>&1 && break
    sleep 1
done
seq 0 $((ACCOUNTS - 1)) | xargs -P 8 -I{} curl -fs -o /dev/null -XPOST "localhost:$PORT/accounts" \
    -H 'Content-Type: application/json' -d '{"id":"w-{}","balance":1000000000}'
# Transactions recorded: a batch refused with 503 (memory, or the journal writer behind) counts nothing.
applied() {
    echo $(($(metric_sum partita_journal_written_total "$PORT") + $(metric_sum partita_journal_skipped_total "$PORT")))
}
# The readiness detail $1 (liveHeap or heapAfterLastCollection).
heap() {
    curl -s "localhost:$PORT/health/readiness" | grep -o "\"$1\":[0-9.]*" | cut -d: -f2
}
# wrk runs 30 s past the last sample (each sample takes a moment more than its 30 s), so that the last interval is
# under load too.
ACCOUNTS=$ACCOUNTS wrk -t2 -c4 -d"$((MINUTES * 60 + 30))s" -s benchmarks/wrk/batches.lua "http://127.0.0.1:$PORT" \
    > "$dir/wrk.txt" 2>&1 &
load=$!
echo "== $MODE, -Xmx$HEAP, $ACCOUNTS accounts, batches of 1,000 at 4 connections for $MINUTES min"
printf "%8s %14s %10s %8s %8s\n" seconds applied tx/s live after
samples=$((MINUTES * 2))
last=$(applied); maxlive=0; maxafter=0; rates=()
for i in $(seq 1 "$samples"); do
    sleep 30
    kill -0 "$node" 2>/dev/null || { echo "the node died: see $dir/node.log"; exit 1; }
    now=$(applied); live=$(heap liveHeap); after=$(heap heapAfterLastCollection); rate=$(((now - last) / 30))
    last=$now; rates+=("$rate")
    printf "%8d %14d %10d %8s %8s\n" $((i * 30)) "$now" "$rate" "$live" "$after"
    maxlive=$(echo "$live $maxlive" | awk '{print ($1 > $2) ? $1 : $2}')
    maxafter=$(echo "$after $maxafter" | awk '{print ($1 > $2) ? $1 : $2}')
done
wait "$load" || true
grep -E "Requests/sec|Non-2xx" "$dir/wrk.txt" | sed 's/^/wrk: /' || true
# 5 minutes is 10 samples; a run shorter than 10 minutes compares its halves.
span=$((samples / 2 < 10 ? samples / 2 : 10))
first=$(printf "%s\n" "${rates[@]:0:span}" | awk '{s += $1} END {print s / NR}')
lastfive=$(printf "%s\n" "${rates[@]: -span}" | awk '{s += $1} END {print s / NR}')
echo "highest live heap: $maxlive; highest heap after any collection: $maxafter"
echo "rate first $((span / 2)) min $first, last $((span / 2)) min $lastfive tx/s ($(echo "$lastfive $first" \
    | awk '{printf "%.2f", $1 / $2}')x)"
grep -q "OutOfMemoryError" "$dir/node.log" && echo "OutOfMemoryError: yes" || echo "OutOfMemoryError: no"
# An account's version counts every transaction it recorded; its history pages through all of them (the run is
# shorter than the retention).
for a in 0 1 2; do
    version=$(curl -s "localhost:$PORT/accounts/w-$a" | { grep -o '"version":[0-9]*' || true; } | cut -d: -f2)
    echo "w-$a: version $version, history entries $(history_entries "http://localhost:$PORT" "w-$a")"
done
kill "$node"; wait "$node" 2>/dev/null || true
# What the store's compactions cost and whether they held writes back, from RocksDB's last dump of its statistics
# (every 10 min): the whole store's writes and stalls, then compaction per column family (default, entries, txids,
# expiry, records).
for log in "$dir"/partita-data/*/LOG; do
    last=$(grep -n "DUMPING STATS" "$log" | tail -1 | cut -d: -f1 || true)
    [ -z "$last" ] || tail -n +"$last" "$log" | grep -E "^Cumulative (writes|stall|compaction)" | sed 's/^/store: /' \
        || true
done
rm -rf "$dir"
