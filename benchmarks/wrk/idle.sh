#!/usr/bin/env bash
# What three idle nodes cost: three nodes started as the README says (java -jar app/target/partita.jar, each in an
# empty directory of its own, TCP discovery on 127.0.0.1), no load. Once every node is ready and sees the cluster
# safe, it waits SETTLE_SECONDS, then prints over RUN_SECONDS the CPU the three processes used (cores, from
# /proc/<pid>/stat) and the operations the members received from each other (partita_member_operations_received_total,
# summed over the nodes, per second). Needs a built jar (mvn -B -q package -DskipTests).
#   bash benchmarks/wrk/idle.sh      # SETTLE_SECONDS=30 RUN_SECONDS=60 by default
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../nodes.sh
. benchmarks/nodes.sh
SETTLE=${SETTLE_SECONDS:-30}
RUN=${RUN_SECONDS:-60}
JAR=$PWD/app/target/partita.jar
[ -f "$JAR" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 1; }
dir=$(mktemp -d -t partita-idle-XXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
ports=(18080 18081 18082)
for i in 0 1 2; do
    mkdir "$dir/n$i"
    start_node "$dir/n$i" "idle-$$" "n$i" "${ports[$i]}"
    pids+=("$NODE_PID")
done
await_ready 180 "${ports[@]}" || { echo "the nodes did not become ready: see $dir" >&2; exit 1; }
for port in "${ports[@]}"; do
    until curl -s "localhost:$port/cluster" | grep -q '"clusterSafe":true'; do sleep 0.5; done
done
sleep "$SETTLE"
cpu() {
    for pid in "${pids[@]}"; do awk '{print $14 + $15}' "/proc/$pid/stat"; done | awk '{s += $1} END {print s}'
}
operations() {
    metric_sum partita_member_operations_received_total "${ports[@]}"
}
ticks=$(getconf CLK_TCK)
cpu0=$(cpu); ops0=$(operations)
sleep "$RUN"
cpu1=$(cpu); ops1=$(operations)
awk -v c0="$cpu0" -v c1="$cpu1" -v o0="$ops0" -v o1="$ops1" -v t="$ticks" -v s="$RUN" 'BEGIN {
    printf "three idle nodes over %d s: %.3f cores, %.0f member operations received per second\n",
        s, (c1 - c0) / t / s, (o1 - o0) / s }'
