#!/usr/bin/env bash
# How long a whole cluster takes to come back from its disks: three node processes started as the README starts them
# (java -jar app/target/partita.jar, flush mode, the default) in one working directory, each with its member name;
# ACCOUNTS accounts opened (wrk, accounts.lua), then batches of 1,000 debits and credits on them (wrk, batches.lua)
# until ENTRIES journal entries are recorded; then kill -9 of all three at once, and all three started again. Prints
# the time from the restart to all three ready (readiness stays DOWN while a node puts its disk back), what each node
# recovered (GET /cluster's durability), and a check that a few accounts came back with their versions and histories.
# Needs wrk and a built jar (mvn -B -q package -DskipTests).
#   bash benchmarks/wrk/restart.sh      # ACCOUNTS=1000000 ENTRIES=10000000 HEAP=1g by default
# KEEP=DIR copies the three data directories to DIR after the kill; FROM=DIR skips the set-up and the kill and restarts
# from a copy of such a DIR, so that one set-up serves several timed restarts (say, of two builds):
#   ACCOUNTS=20000 ENTRIES=400000 KEEP=/tmp/snap bash benchmarks/wrk/restart.sh
#   FROM=/tmp/snap bash benchmarks/wrk/restart.sh
#   JAR=/elsewhere/partita.jar FROM=/tmp/snap bash benchmarks/wrk/restart.sh     # another build, same data
# JVM_OPTS adds options to every node's JVM (a profiler, say).
set -euo pipefail
cd "$(dirname "$0")/../.."
ACCOUNTS=${ACCOUNTS:-1000000}
ENTRIES=${ENTRIES:-10000000}
HEAP=${HEAP:-1g}
KEEP=${KEEP:-}
FROM=${FROM:-}
BASE_PORT=${BASE_PORT:-18280}
JAR=$(readlink -f "${JAR:-app/target/partita.jar}")
[ -f "$JAR" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk: apt-get install -y wrk" >&2; exit 1; }
dir=$(mktemp -d -t partita-restart-XXXX)
cluster="restart-$$"
pids=()
load=
trap 'for p in "${pids[@]}" $load; do kill -9 "$p" 2> /dev/null || true; done' EXIT

# shellcheck source=../nodes.sh
. benchmarks/nodes.sh
ports=("$BASE_PORT" $((BASE_PORT + 1)) $((BASE_PORT + 2)))
start_all() {
    for i in 0 1 2; do
        start_node "$dir" "$cluster" "n$i" "${ports[$i]}" -Xmx"$HEAP" -XX:+ExitOnOutOfMemoryError ${JVM_OPTS:-}
        pids[$i]=$NODE_PID
    done
}

accounts() {
    metric_sum 'partita_map_entries{map="accounts",replica="primary"}' "${ports[@]}"
}

# Entries recorded: the journal writer copies each to the journal map or skips it (its queue full).
written() {
    echo $(($(metric_sum partita_journal_written_total "${ports[@]}") \
        + $(metric_sum partita_journal_skipped_total "${ports[@]}")))
}

url="http://127.0.0.1:$BASE_PORT"
if [ -n "$FROM" ]; then
    cp -a "$FROM/." "$dir/"
    cluster=$(cat "$dir/cluster")
    echo "== 3 nodes in $dir, -Xmx$HEAP, with the data of $FROM"
else
    start_all
    await_ready 180 "${ports[@]}"
    echo "== 3 nodes in $dir, -Xmx$HEAP: opening $ACCOUNTS accounts"
    started=$SECONDS
    ACCOUNTS=$ACCOUNTS THREADS=2 wrk -t2 -c16 -d36000s -s benchmarks/wrk/accounts.lua "$url" > /dev/null &
    load=$!
    # Until all are there, or the count stands still (an open that failed is not sent again).
    previous=-1
    while :; do
        sleep 5
        now=$(accounts)
        if [ "$now" -ge "$ACCOUNTS" ] || [ "$now" -eq "$previous" ]; then
            break
        fi
        previous=$now
    done
    kill "$load"; wait "$load" 2> /dev/null || true; load=
    echo "$(accounts) opened in $((SECONDS - started)) s; recording $ENTRIES entries in batches of 1,000"
    started=$SECONDS
    ACCOUNTS=$ACCOUNTS wrk -t2 -c4 -d36000s -s benchmarks/wrk/batches.lua "$url" > /dev/null 2>&1 &
    load=$!
    while [ "$(written)" -lt "$ENTRIES" ]; do sleep 5; done
    kill "$load"; wait "$load" 2> /dev/null || true; load=
    echo "$(written) entries recorded in $((SECONDS - started)) s"
    for a in 1 2 3; do
        curl -s "$url/accounts/w-$a" | { grep -o '"version":[0-9]*' || echo "not readable"; } > "$dir/w-$a.before"
    done
    sleep 2
    du -sh "$dir"/partita-data/* | sed 's/^/disk: /' || true
    echo "== kill -9 of all three"
    for i in 0 1 2; do
        kill -9 "${pids[$i]}"
    done
    for i in 0 1 2; do
        wait "${pids[$i]}" 2> /dev/null || true
    done
    if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP"
        cp -a "$dir/partita-data" "$dir"/w-*.before "$KEEP/"
        echo "$cluster" > "$KEEP/cluster"
        echo "data kept in $KEEP"
    fi
fi
restarted=$(date +%s.%N)
start_all
await_ready 3600 "${ports[@]}"
echo "all three ready $(python3 -c "print(round($(date +%s.%N) - $restarted, 1))") s after their restart"
for i in 0 1 2; do
    curl -s "localhost:$((BASE_PORT + i))/cluster" | python3 -c \
        "import json,sys; d=json.load(sys.stdin)['durability']; print('n$i:', d)"
    grep -o 'Recovered [0-9]* accounts.*' "$dir/n$i.log" | tail -1 | sed "s/^/n$i: /" || true
done
for a in 1 2 3; do
    now=$(curl -s "$url/accounts/w-$a" | { grep -o '"version":[0-9]*' || echo "not readable"; })
    echo "w-$a: before the kill $(cat "$dir/w-$a.before"), after $now, history entries $(history_entries "$url" "w-$a")"
done
for i in 0 1 2; do
    kill "${pids[$i]}"
done
wait 2> /dev/null || true
rm -rf "$dir"
