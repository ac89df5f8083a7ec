#!/usr/bin/env bash
# Starts SecantusDB, a MongoDB wire-compatible server from PyPI, as an in-memory single-node replica set
# for tests and CI (no real mongod can be installed on the build machines: docs/cluster.md §What runs against MongoDB).
#
#   scripts/mongo-test-server.sh [PORT]                 foreground; prints the URL, Ctrl-C stops it
#   scripts/mongo-test-server.sh --background [PORT]    prints the URL once it accepts connections, then exits;
#                                                       the server keeps running, its pid in $STATE_DIR/PORT.pid
#   scripts/mongo-test-server.sh --stop PORT            stops a background server started by this script
#   scripts/mongo-test-server.sh --run COMMAND...        runs COMMAND with MONGODB_URL set to a fresh server,
#                                                       stops the server, exits with COMMAND's status (for CI)
#
# --test-commands before any of the above (e.g. --test-commands --background) starts the server with
# --enable-test-commands: configureFailPoint (failCommand) and replSetStepDown, as mongod's option of that name. The
# fault suite (test/store/mongo-faults.test.ts) starts its own such server: a step-down or a blocked connection is
# server-wide and would disturb the other test files sharing CI's server, which therefore starts without it.
#
# Environment: SECANTUS_VENV (default: <repo>/.venv), STATE_DIR (default: <repo>/data/mongo-test-server),
# TRANSACTION_LIFETIME_SECONDS (default 10): how long a transaction left open (its node killed) holds its objects,
# as transactionLifetimeLimitSeconds in the k8s manifests (docs/mongodb.md §Feed ordering on MongoDB).
# SecantusDB takes it only as a constructor argument, so the server is started through a few lines that pass it.
# Those lines also prune SecantusDB's retryable-write records at most once a second: 0.7.0b3 scans (and past
# 10,000 sorts) all of them on every retryable write, which made one single-document write cost ~40 ms of the
# server's CPU after a few thousand writes (measured; with a transaction the same insert took 7 ms).
set -euo pipefail

VERSION='0.7.0b3'
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SECANTUS_VENV:-$ROOT/.venv}"
STATE_DIR="${STATE_DIR:-$ROOT/data/mongo-test-server}"
PYTHON="$VENV/bin/python"

install_server() {
  if [[ -x "$PYTHON" ]] && "$PYTHON" -m pip show SecantusDB 2>/dev/null | grep -qx "Version: $VERSION"; then
    return
  fi
  if [[ ! -x "$PYTHON" ]] && ! python3 -m venv "$VENV" >&2; then
    echo "cannot create $VENV: needs python3 ≥ 3.10 with venv (Debian: apt-get install python3-venv)" >&2
    exit 1
  fi
  "$PYTHON" -m pip install --quiet --disable-pip-version-check "SecantusDB==$VERSION" >&2
}

free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_until_listening() {
  local port=$1 pid=$2
  for _ in $(seq 1 150); do
    kill -0 "$pid" 2>/dev/null || { echo "SecantusDB exited; log: $STATE_DIR/$port.log" >&2; return 1; }
    if "$PYTHON" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2)' "$port" 2>/dev/null; then
      return 0
    fi
    sleep 0.2
  done
  echo "SecantusDB did not listen on $port within 30 s; log: $STATE_DIR/$port.log" >&2
  return 1
}

# SecantusDB 0.7.0b3 does not always exit on SIGTERM (its shutdown can hang), so escalate after 5 s.
stop_server() {
  local pid=$1
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 25); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

url_for() { echo "mongodb://127.0.0.1:$1/?replicaSet=secantus"; }

LAUNCH='
import os, sys, time
import secantus.cli as cli, secantus.server as server, secantus.transactions as transactions
init = server.SecantusDBServer.__init__
lifetime = float(os.environ.get("TRANSACTION_LIFETIME_SECONDS", "10"))
server.SecantusDBServer.__init__ = lambda self, *a, **k: init(self, *a, transaction_lifetime_seconds=lifetime, **k)
prune = transactions.TransactionRegistry._prune_retryable_locked
pruned = [0.0]
def prune_each_second(self):
    if time.monotonic() - pruned[0] >= 1.0:
        pruned[0] = time.monotonic()
        prune(self)
transactions.TransactionRegistry._prune_retryable_locked = prune_each_second
sys.exit(cli.main(sys.argv[1:]))
'

# run_server PORT [WRAPPER...]: the server, optionally under a wrapper command such as setsid.
run_server() {
  local port=$1
  shift
  exec "$@" "$PYTHON" -c "$LAUNCH" --host 127.0.0.1 --port "$port" --storage-path :memory: --log-level WARNING "${TEST_COMMANDS[@]}"
}

# The comment block above, as the usage text (--help, or a wrong option).
usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

TEST_COMMANDS=()
if [[ "${1:-}" == --test-commands ]]; then
  TEST_COMMANDS=(--enable-test-commands)
  shift
fi

case "${1:-}" in
  -h | --help) usage ;;
  --stop)
    port=${2:?usage: $0 --stop PORT}
    pid_file="$STATE_DIR/$port.pid"
    if [[ -f "$pid_file" ]]; then
      stop_server "$(cat "$pid_file")"
      rm -f "$pid_file"
    fi
    ;;
  --run)
    shift
    [[ $# -gt 0 ]] || { echo "usage: $0 --run COMMAND..." >&2; exit 2; }
    url=$("$0" "${TEST_COMMANDS[@]}" --background)
    port=${url#mongodb://127.0.0.1:}
    port=${port%%/*}
    trap '"$0" --stop "$port"' EXIT
    status=0
    MONGODB_URL="$url" "$@" || status=$?
    exit "$status"
    ;;
  --background)
    install_server
    port=${2:-$(free_port)}
    mkdir -p "$STATE_DIR"
    # setsid: the server outlives this script and the terminal or CI step that started it.
    run_server "$port" setsid >"$STATE_DIR/$port.log" 2>&1 </dev/null &
    echo $! >"$STATE_DIR/$port.pid"
    wait_until_listening "$port" "$!"
    url_for "$port"
    ;;
  -*)
    echo "unknown option: $1" >&2
    usage >&2
    exit 2
    ;;
  *)
    install_server
    port=${1:-$(free_port)}
    mkdir -p "$STATE_DIR"
    run_server "$port" &
    pid=$!
    trap 'stop_server "$pid"' INT TERM EXIT
    wait_until_listening "$port" "$pid"
    url_for "$port"
    wait "$pid"
    ;;
esac
