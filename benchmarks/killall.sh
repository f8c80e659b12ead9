#!/usr/bin/env bash
# A whole-cluster stop under load, from outside: three node processes started as the README starts them (java -jar
# app/target/partita.jar, flush mode, the default), in one working directory, each with its member name so that it
# finds its own data again. Before the load: a FEE job over a few accounts of its own (run to its end), a schedule and
# a lease group. Then the load tool at full rate (20% transfers, 20% retries) for LOAD_SECONDS; KILL_AFTER seconds in,
# every node gets SIGNAL at once (KILL: kill -9; TERM: a graceful stop of all three together), and once all have
# exited the three start again in the same directory. The load tool keeps retrying meanwhile (each operation until
# it gets a definite answer, up to --give-up) and then checks every acknowledged operation: its verdict must be PASS.
# After it: an AUDIT job (0 mismatches), the job, the schedule and the lease group all back, and the time from the
# restart of the nodes to all three ready. Needs a built jar (mvn -B -q package -DskipTests) and curl.
#   bash benchmarks/killall.sh                  # SIGNAL=KILL ACCOUNTS=1000 LOAD_SECONDS=150 KILL_AFTER=60 by default
#   SIGNAL=TERM bash benchmarks/killall.sh
# KEEP_DATA=1 keeps a copy of the data directories as the stop left them, in the run's directory (at-stop/).
# KILL=one signals and restarts one node (n1) while the other two serve: the Java client's retries (the load tool
# calls the nodes through it) must hide the loss within their budget, GIVE_UP (30 s, the client's default, for one;
# 150 s for all), so this run also requires 0 unknown outcomes:
#   KILL=one LOAD_SECONDS=60 KILL_AFTER=20 bash benchmarks/killall.sh
# Exits 0 when every check passed, 1 otherwise. The nodes' logs stay in the printed directory.
set -uo pipefail
cd "$(dirname "$0")/.."
SIGNAL=${SIGNAL:-KILL}
KILL=${KILL:-all}
case $KILL in
    all) victims=(0 1 2); GIVE_UP=${GIVE_UP:-150s} ;;
    one) victims=(1); GIVE_UP=${GIVE_UP:-30s} ;;
    *) echo "KILL is all or one" >&2; exit 2 ;;
esac
ACCOUNTS=${ACCOUNTS:-1000}
LOAD_SECONDS=${LOAD_SECONDS:-150}
KILL_AFTER=${KILL_AFTER:-60}
CONCURRENCY=${CONCURRENCY:-32}
BASE_PORT=${BASE_PORT:-18180}
JAR=$PWD/app/target/partita.jar
[ -f "$JAR" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 1; }
dir=$(mktemp -d -t partita-killall-XXXX)
cluster="killall-$$"
pids=()
failures=0

# shellcheck source=nodes.sh
. benchmarks/nodes.sh
ports=("$BASE_PORT" $((BASE_PORT + 1)) $((BASE_PORT + 2)))
start_all() {
    local which=("$@")
    [ $# -gt 0 ] || which=(0 1 2)
    for i in "${which[@]}"; do
        start_node "$dir" "$cluster" "n$i" "${ports[$i]}"
        pids[$i]=$NODE_PID
    done
}

check() {
    if [ "$2" = "$3" ]; then
        echo "ok    $1: $3"
    else
        echo "FAIL  $1: expected $2, got $3"
        failures=$((failures + 1))
    fi
}

json() {
    python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}

trap 'for p in "${pids[@]}"; do kill -9 "$p" 2> /dev/null; done' EXIT
echo "== nodes in $dir (cluster $cluster), signal $SIGNAL to $KILL after ${KILL_AFTER}s of ${LOAD_SECONDS}s of load"
start_all
await_ready 180 "${ports[@]}" || { echo "the nodes did not get ready" >&2; exit 1; }
url="http://localhost:$BASE_PORT"
post() {
    curl -s -o /dev/null -w '%{http_code}' -XPOST "$url$1" -H 'Content-Type: application/json' -d "$2"
}
for k in 0 1 2 3 4; do
    post /accounts "{\"id\":\"ka-$k\",\"balance\":1000}" > /dev/null
done
post /jobs '{"id":"ka-fee","type":"FEE","amount":5}' > /dev/null
until [ "$(curl -s "$url/jobs/ka-fee" | json 'd["state"]')" = COMPLETED ]; do sleep 0.5; done
curl -s -o /dev/null -XPUT "$url/schedules/ka-yearly" -H 'Content-Type: application/json' \
    -d '{"cron":"0 0 1 1 *","job":{"type":"FEE","amount":1}}'
curl -s -o /dev/null -XPUT "$url/groups/ka-group" -H 'Content-Type: application/json' \
    -d '{"shards":8,"leaseSeconds":10}'

targets="http://localhost:$BASE_PORT,http://localhost:$((BASE_PORT + 1)),http://localhost:$((BASE_PORT + 2))"
java -jar "$JAR" load --targets "$targets" --accounts "$ACCOUNTS" --duration "${LOAD_SECONDS}s" --retries 20% \
    --transfers 20% --concurrency "$CONCURRENCY" --give-up "$GIVE_UP" --settle 90s > "$dir/load.log" 2>&1 &
load=$!
sleep "$KILL_AFTER"
echo "== SIG$SIGNAL to node(s) ${victims[*]} at once"
for i in "${victims[@]}"; do
    kill "-$SIGNAL" "${pids[$i]}"
done
stopped=$SECONDS
for i in "${victims[@]}"; do
    wait "${pids[$i]}" 2> /dev/null
done
echo "node(s) ${victims[*]} exited in $((SECONDS - stopped)) s"
[ "${KEEP_DATA:-0}" = 1 ] && cp -a "$dir/partita-data" "$dir/at-stop"
restarted=$(date +%s.%N)
start_all "${victims[@]}"
if await_ready 300 "${ports[@]}"; then
    echo "all three ready $(python3 -c "print(round($(date +%s.%N) - $restarted, 1))") s after the restart"
else
    echo "FAIL  the nodes were not ready within 300 s of their restart"
    failures=$((failures + 1))
fi
curl -s "$url/cluster" | json '"durability: " + str(d.get("durability"))'
wait "$load"
grep -E "PASS|FAIL|unknown outcome" "$dir/load.log" | tail -3
grep -q "^PASS\|: PASS" "$dir/load.log" || failures=$((failures + 1))
if [ "$KILL" = one ]; then
    check "unknown outcomes (callers' errors past the retry budget)" 0 \
        "$(grep -oE '[0-9]+ unknown outcome' "$dir/load.log" | tail -1 | cut -d' ' -f1)"
fi

post /jobs '{"id":"ka-audit","type":"AUDIT"}' > /dev/null
until [ "$(curl -s "$url/jobs/ka-audit" | json 'd["state"]')" = COMPLETED ]; do sleep 1; done
check "AUDIT mismatches" 0 "$(curl -s "$url/jobs/ka-audit" | json 'd["mismatches"]')"
check "the FEE job from before the stop" "COMPLETED 5" \
    "$(curl -s "$url/jobs/ka-fee" | json 'd["state"] + " " + str(d["applied"])')"
check "ka-0's balance after the fee" 995 "$(curl -s "$url/accounts/ka-0" | json 'd["balance"]')"
check "the schedule" "0 0 1 1 *" "$(curl -s "$url/schedules/ka-yearly" | json 'd["cron"]')"
check "the lease group's shards" 8 "$(curl -s "$url/groups/ka-group" | json 'd["shards"]')"
check "a retried account open" 409 "$(post /accounts '{"id":"ka-0","balance":1000}')"
echo "== $([ $failures -eq 0 ] && echo PASS || echo "FAIL ($failures)"); logs in $dir"
[ $failures -eq 0 ]
