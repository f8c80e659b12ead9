# Shell functions the benchmark scripts share (sourced, not run): node processes started as the README starts them,
# and an account's history read back through the API.

# start_node DIR CLUSTER NAME PORT [JVM option...]: a node in working directory DIR, member name NAME (so that it
# finds its own data again after a restart), discovery by TCP on 127.0.0.1, HTTP on PORT, appending to DIR/NAME.log.
# Sets NODE_PID.
start_node() {
    local dir=$1 cluster=$2 name=$3 port=$4
    shift 4
    (cd "$dir" && PARTITA_CLUSTER_NAME=$cluster PARTITA_DISCOVERY=tcp PARTITA_MEMBERS=127.0.0.1 \
        PARTITA_MEMBER_NAME=$name MICRONAUT_SERVER_PORT=$port exec java "$@" -jar "$JAR" >> "$name.log" 2>&1) &
    NODE_PID=$!
}

# await_ready SECONDS PORT...: waits until every node answers its readiness; fails after SECONDS.
await_ready() {
    local deadline=$((SECONDS + $1))
    shift
    for port in "$@"; do
        until curl -fs "localhost:$port/health/readiness" > /dev/null 2>&1; do
            [ $SECONDS -lt $deadline ] || return 1
            sleep 0.2
        done
    done
}

# history_entries URL ACCOUNT: how many entries GET /accounts/{id}/transactions pages through, newest to oldest.
history_entries() {
    local count=0 before=9223372036854775807 seqs
    while :; do
        seqs=$(curl -s "$1/accounts/$2/transactions?limit=1000&before=$before" \
            | { grep -o '"seq":[0-9]*' || true; } | cut -d: -f2)
        [ -z "$seqs" ] && break
        count=$((count + $(echo "$seqs" | wc -l))); before=$(echo "$seqs" | tail -1)
    done
    echo "$count"
}

# metric_sum METRIC PORT...: the sum over the nodes on PORT... of the /prometheus lines that start with METRIC (a
# name, with its labels when it has some), as a whole number.
metric_sum() {
    local metric=$1
    shift
    for port in "$@"; do
        curl -s "localhost:$port/prometheus"
    done | awk -v m="$metric" 'index($0, m) == 1 {s += $NF} END {printf "%d", s}'
}
