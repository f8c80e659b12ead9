#!/usr/bin/env bash
# The container path, run for real with Podman: builds the image, starts docker/compose.yaml's three nodes with
# podman-compose, and checks them with the load tool through a container crash and a whole-stack restart.
#   bash docker/test.sh                      (as root, from anywhere; about 15 minutes on 2 busy cores)
# Needs: podman, podman-compose, debootstrap (Debian: apt-get install -y podman podman-compose debootstrap), curl,
# python3, and Java 17 + Maven on the host for the jar and the load tool. No image registry: the base image is built
# from Debian's packages (docker/base-image.sh) and the jar is built on the host (target "prebuilt").
#
# What it checks, in order (README, "Running in containers"):
#   1. the image builds, runs as uid 10001 with java as PID 1, and carries the healthcheck (and, with npm,
#      docker/kubernetes.yaml validates against the Kubernetes API schemas: docker/validate-kubernetes.sh);
#   2. the three nodes form one cluster of 3 (CP Raft on all three), become ready, and pass the healthcheck;
#   3. only the HTTP ports are published to the host (on loopback), never the member port 5701;
#   4. the API refuses a request without credentials (401) and answers with them;
#   5. load tool, $LOAD_SECONDS s: PASS;
#   6. load tool for twice as long, and 10 s into it SIGKILL to node2's java: the restart policy starts the
#      container again, the node rejoins, PASS;
#   7. the whole stack stopped gracefully and started again: the nodes come back, form the cluster, become ready and
#      serve; every balance written before the stop is back (each node keeps its ledger in its named volume); load
#      tool on a freshly opened set of accounts: PASS.
#
# Settings (environment): PARTITA_TEST_LOAD_SECONDS (60), PARTITA_TEST_ACCOUNTS (1000),
# PARTITA_TEST_BASE_IMAGE (partita-base:bookworm, built when missing), PARTITA_TEST_KEEP=1 leaves the cluster
# running at the end (remove it with: podman-compose -p partita-test -f docker/compose.yaml down).
# Node logs: app/target/container-test/. Exit status 0 when every check passed.
set -euo pipefail
# The whole script is one block, read before it runs: editing this file during a run cannot change that run.
{
cd "$(dirname "$0")/.."
ROOT=$PWD

LOAD_SECONDS=${PARTITA_TEST_LOAD_SECONDS:-60}
ACCOUNTS=${PARTITA_TEST_ACCOUNTS:-1000}
BASE_IMAGE=${PARTITA_TEST_BASE_IMAGE:-partita-base:bookworm}
PROJECT=partita-test
export PARTITA_IMAGE=localhost/partita:test
# Passwords of this run only: nothing here works with the compose file's defaults.
export PARTITA_ADMIN_PASSWORD="admin-$RANDOM$RANDOM"
export PARTITA_CLIENT_PASSWORD="client-$RANDOM$RANDOM"
PORTS=(8081 8082 8083)
# The load runs' account and transaction ids start with this (unique per test run).
RUN=t$(date +%s)
TARGETS=http://127.0.0.1:8081,http://127.0.0.1:8082,http://127.0.0.1:8083
LOGS=$ROOT/app/target/container-test
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log
# Podman in a sandbox that refuses rlimits (gVisor): runc, and no default ulimits. Only when this machine has no
# containers.conf of its own and the caller set none.
if [[ -z "${CONTAINERS_CONF:-}" && ! -e /etc/containers/containers.conf ]]; then
    export CONTAINERS_CONF=$ROOT/docker/containers.conf
fi

START=$(date +%s)
FAILED=0
say() { printf '[%4ds] %s\n' "$(($(date +%s) - START))" "$*"; }
fail() { say "FAIL: $*"; FAILED=1; }
die() { say "FAIL: $*"; exit 1; }
compose() { podman-compose -p "$PROJECT" -f docker/compose.yaml "$@" >>"$LOGS/compose.log" 2>&1; }
container() { echo "${PROJECT}_node$1_1"; }

save_logs() {
    for n in 1 2 3; do
        podman logs "$(container $n)" >"$LOGS/node$n.log" 2>&1 || true
    done
}
cleanup() {
    local status=$?
    save_logs
    if [[ "${PARTITA_TEST_KEEP:-0}" == 1 ]]; then
        say "cluster left running (PARTITA_TEST_KEEP=1)"
    else
        compose down -t 5 || true
        podman network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
    fi
    say "wall time $(($(date +%s) - START)) s; logs in $LOGS"
    exit $status
}

for tool in podman podman-compose curl python3 java; do
    command -v $tool >/dev/null || die "$tool is not installed (see the top of docker/test.sh)"
done
for port in "${PORTS[@]}"; do
    ! curl -s -o /dev/null -m 2 "http://127.0.0.1:$port/" || die "port $port is taken on this machine"
done
if podman container exists "$(container 1)"; then
    die "a cluster of project $PROJECT runs already: podman-compose -p $PROJECT -f docker/compose.yaml down"
fi
# Each run starts with empty data volumes: a node finds its own data again only within a run (the whole-stack restart).
for n in 1 2 3; do
    podman volume rm -f "${PROJECT}_node$n-data" >/dev/null 2>&1 || true
done
: >"$LOGS/compose.log"
trap cleanup EXIT

# --- 1. the image ---
if [[ ! -f app/target/partita.jar ]]; then
    say "building the jar (mvn -B -q package -DskipTests)"
    nice -n 10 mvn -B -q package -DskipTests
fi
say "jar: app/target/partita.jar of $(date -u -r app/target/partita.jar '+%F %T UTC')"
nice -n 10 bash docker/base-image.sh "$BASE_IMAGE"
say "building $PARTITA_IMAGE on $BASE_IMAGE (target prebuilt)"
nice -n 10 podman build --format docker -f docker/Dockerfile --target prebuilt --build-arg "BASE_IMAGE=$BASE_IMAGE" \
    -t "$PARTITA_IMAGE" . >"$LOGS/build.log" 2>&1 || { tail -20 "$LOGS/build.log"; die "the image did not build"; }
user=$(podman image inspect -f '{{.Config.User}}' "$PARTITA_IMAGE")
[[ "$user" == 10001 ]] || fail "the image runs as '$user', not 10001"
health=$(podman image inspect -f '{{.HealthCheck.Test}}' "$PARTITA_IMAGE")
[[ "$health" == *"/health/readiness"* ]] || fail "the image's healthcheck is '$health'"
say "image: user $user, healthcheck $health"

# --- the Kubernetes manifest against the API schemas (npm), when npm is here ---
if command -v npm >/dev/null; then
    if bash docker/validate-kubernetes.sh >"$LOGS/kubernetes-validate.log" 2>&1; then
        say "docker/kubernetes.yaml: every resource valid against the API schemas (docker/validate-kubernetes.sh)"
    else
        cat "$LOGS/kubernetes-validate.log"
        fail "docker/kubernetes.yaml does not validate"
    fi
else
    say "npm missing: docker/kubernetes.yaml not validated against the API schemas"
fi

# --- helpers ---
# GET on a node as the client; prints the body; fails on a status other than 200.
get() { curl -fsS -m 5 -u "client:$PARTITA_CLIENT_PASSWORD" "http://127.0.0.1:$1$2"; }
# POST /sql as the admin; prints the body.
sql() {
    curl -fsS -m 20 -u "admin:$PARTITA_ADMIN_PASSWORD" -H 'Content-Type: application/json' \
        -d "$(python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1], "params": sys.argv[2:]}))' "$@")" \
        http://127.0.0.1:8081/sql
}
# True when every node is ready and sees a safe cluster of 3 members with 3 CP members.
cluster_ready() {
    local port body
    for port in "${PORTS[@]}"; do
        curl -fsS -m 5 -o /dev/null "http://127.0.0.1:$port/health/readiness" 2>/dev/null || return 1
        body=$(get "$port" /cluster 2>/dev/null) || return 1
        python3 -c '
import json, sys
c = json.loads(sys.argv[1])
ok = len(c["members"]) == 3 and c.get("clusterSafe") is True and c.get("cp", {}).get("members", 0) == 3
sys.exit(0 if ok else 1)' "$body" 2>/dev/null || return 1
    done
}
wait_ready() {
    local what=$1 limit=${2:-300} t0=$SECONDS
    until cluster_ready; do
        if ((SECONDS - t0 > limit)); then
            for port in "${PORTS[@]}"; do
                say "  $port readiness: $(curl -s -m 5 "http://127.0.0.1:$port/health/readiness" | head -c 400)"
            done
            die "$what: not ready within $limit s"
        fi
        sleep 3
    done
    say "$what: 3 nodes ready, one safe cluster of 3 members, CP Subsystem of 3 ($((SECONDS - t0)) s)"
}
healthchecks() {
    local n
    for n in 1 2 3; do
        podman healthcheck run "$(container $n)" >/dev/null 2>&1 || fail "node$n: the image's healthcheck fails"
    done
}
# The load tool against the three nodes on the host's published ports; $1 names the run, the rest are extra options.
load() {
    local name=$1
    shift
    say "load run '$name': $LOAD_SECONDS s, $ACCOUNTS accounts $*"
    PARTITA_LOAD_USER=admin PARTITA_LOAD_PASSWORD=$PARTITA_ADMIN_PASSWORD nice -n 10 \
        java -Xmx512m -jar app/target/partita.jar load --targets "$TARGETS" --accounts "$ACCOUNTS" \
        --duration "${LOAD_SECONDS}s" --concurrency 16 --prefix "$RUN-$name" "$@" >"$LOGS/load-$name.log" 2>&1
}
load_result() {
    local name=$1 status=$2
    # the last per-second line and the verdict
    grep -E '^\[ *[0-9]+s\]' "$LOGS/load-$name.log" | tail -1 | sed 's/^/    /' || true
    grep -E '^(PASS|FAIL)' "$LOGS/load-$name.log" | sed 's/^/    /' || true
    if [[ $status == 0 ]] && grep -q '^PASS' "$LOGS/load-$name.log"; then
        say "load run '$name': PASS"
    else
        tail -30 "$LOGS/load-$name.log"
        fail "load run '$name': exit status $status, no PASS (log: $LOGS/load-$name.log)"
    fi
}
# The balances the ledger holds now: how many accounts and their total, and a digest of each balance of the crash
# run's accounts (id and balance, in id order).
balances() {
    local all crash
    all=$(sql "SELECT COUNT(*) AS n, SUM(balance) AS total FROM accounts")
    crash=$(sql "SELECT id, balance FROM accounts WHERE id LIKE ? ORDER BY id" "$RUN-crash-%")
    python3 -c '
import hashlib, json, sys
a = json.loads(sys.argv[1])["rows"][0]
c = json.loads(sys.argv[2])
a = [a[0], a[1] if a[1] is not None else 0]
rows = ";".join("%s=%s" % (r[0], r[1]) for r in c["rows"])
print("%s accounts, total %s; crash run: %d accounts%s, digest %s" % (a[0], a[1], len(c["rows"]),
      " (truncated)" if c["truncated"] else "", hashlib.sha256(rows.encode()).hexdigest()[:16]))' "$all" "$crash"
}

# --- 2. the cluster ---
say "starting $PROJECT: podman-compose -f docker/compose.yaml up -d"
nice -n 10 podman-compose -p "$PROJECT" -f docker/compose.yaml up -d >>"$LOGS/compose.log" 2>&1 \
    || { tail -20 "$LOGS/compose.log"; die "podman-compose up failed"; }
wait_ready "first start" 420
healthchecks
for n in 1 2 3; do
    pid1=$(podman exec "$(container $n)" cat /proc/1/comm)
    uid=$(podman exec "$(container $n)" id -u)
    [[ "$pid1" == java && "$uid" == 10001 ]] || fail "node$n: PID 1 is '$pid1' as uid $uid (java as 10001 expected)"
done

# --- 3. published ports ---
for n in 1 2 3; do
    published=$(podman port "$(container $n)" | tr '\n' ' ')
    [[ "$published" == "8080/tcp -> 127.0.0.1:808$n " ]] \
        || fail "node$n publishes '$published' (only 8080/tcp -> 127.0.0.1:808$n expected)"
done
say "published: only 8080 of each node, on 127.0.0.1:8081-8083; 5701 is not published"

# --- 4. credentials ---
status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 http://127.0.0.1:8081/accounts/anyone)
challenge=$(curl -s -o /dev/null -D - -m 5 http://127.0.0.1:8081/cluster | grep -i '^WWW-Authenticate' | tr -d '\r' || true)
[[ "$status" == 401 && "$challenge" == *Basic* ]] \
    || fail "a request without credentials got $status ($challenge), not 401 with a Basic challenge"
status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -u client:change-me-client http://127.0.0.1:8081/cluster)
[[ "$status" == 401 ]] || fail "the compose file's default password was accepted ($status) with another one set"
status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -u "client:$PARTITA_CLIENT_PASSWORD" http://127.0.0.1:8081/cluster)
[[ "$status" == 200 ]] || fail "the client's password got $status on /cluster"
say "credentials: none -> 401 ($challenge), the run's client password -> 200"

# --- 5. load ---
set +e; load steady; s=$?; set -e
load_result steady $s

# --- 6. a node killed under load ---
victim=$(container 2)
restarts_before=$(podman inspect -f '{{.RestartCount}}' "$victim")
set +e
# Twice as long as the others, so that the restarted node rejoins and takes partitions back under load.
LOAD_SECONDS=$((LOAD_SECONDS * 2)) load crash &
load_pid=$!
# The kill comes 10 s into the load itself, once the run's accounts are open.
t0=$SECONDS
until grep -q '^driving' "$LOGS/load-crash.log" 2>/dev/null || ((SECONDS - t0 > 300)); do sleep 1; done
sleep 10
pid=$(podman inspect -f '{{.State.Pid}}' "$victim")
say "kill -9 of node2's java (host pid $pid) under load"
kill -9 "$pid"
t0=$SECONDS
restarted=0
while ((SECONDS - t0 < 60)); do
    if [[ $(podman inspect -f '{{.RestartCount}} {{.State.Running}}' "$victim") == "$((restarts_before + 1)) true" ]]; then
        restarted=1
        break
    fi
    sleep 1
done
if [[ $restarted == 1 ]]; then
    say "node2 restarted by its restart policy (on-failure) after $((SECONDS - t0)) s"
else
    fail "node2 was not restarted by its restart policy within 60 s; starting it by hand"
    podman start "$victim" >/dev/null
fi
wait $load_pid; s=$?
set -e
load_result crash $s
wait_ready "after the crash" 300
healthchecks

# --- 7. the whole stack stopped and started ---
before=$(balances)
say "before the stop: $before"
t0=$SECONDS
nice -n 10 podman-compose -p "$PROJECT" -f docker/compose.yaml stop -t 90 >>"$LOGS/compose.log" 2>&1
say "whole stack stopped gracefully in $((SECONDS - t0)) s (exit statuses:$(for n in 1 2 3; do
    printf ' %s' "$(podman inspect -f '{{.State.ExitCode}}' "$(container $n)")"; done))"
save_logs
for n in 1 2 3; do cp "$LOGS/node$n.log" "$LOGS/node$n-before-stop.log"; done
nice -n 10 podman-compose -p "$PROJECT" -f docker/compose.yaml start >>"$LOGS/compose.log" 2>&1
wait_ready "whole-stack restart" 420
healthchecks
after=$(balances)
if [[ "$after" == "$before" ]]; then
    say "after the restart: $after: every balance survived"
else
    fail "after the restart: $after (before: $before): balances lost"
fi
set +e; load restart; s=$?; set -e
load_result restart $s

if [[ $FAILED == 0 ]]; then
    say "PASS: image, compose cluster, crash and whole-stack restart"
else
    say "FAIL: see above"
    exit 1
fi
exit 0
}
