#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a node started on a free loopback port over a temporary SQLite file, using
# the node's own /api/2.5/openapi.json. Fails on any 5xx or any response that breaks the documented schema.
#
#   scripts/schemathesis.sh            install (once) and run; exit status 0 = no failure
#
# Environment: SCHEMATHESIS_VENV (default: <repo>/data/schemathesis-venv), SCHEMATHESIS_EXAMPLES (default 15,
# examples per operation in the fuzzing phase), SCHEMATHESIS_SEED (default 1: the same cases every run).
set -euo pipefail

# The comment block above, as the usage text (--help, or a wrong option).
usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
case "${1:-}" in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
esac

VERSION='4.32.5'
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SCHEMATHESIS_VENV:-$ROOT/data/schemathesis-venv}"
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-15}"
SEED="${SCHEMATHESIS_SEED:-1}"

if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "$VERSION"; then
  python3 -m venv "$VENV" || { echo "cannot create $VENV: needs python3 with venv" >&2; exit 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION" || { echo "schemathesis==$VERSION did not install" >&2; exit 1; }
fi

work=$(mktemp -d)
node_pid=''
cleanup() {
  if [[ -n "$node_pid" ]]; then kill "$node_pid" 2>/dev/null || true; wait "$node_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT="$port" HOST=127.0.0.1 STORE_URL="sqlite:$work/registry.db" AUTH_FILE="$ROOT/auth.ini" \
  SESSION_SECRET=schemathesis-secret-schemathesis NODE_ID=schemathesis LOG_LEVEL=warn \
  "$ROOT/node_modules/.bin/tsx" "$ROOT/src/main.ts" >"$work/node.log" 2>&1 &
node_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  "$VENV/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$base/readyz" 2>/dev/null && break
  kill -0 "$node_pid" 2>/dev/null || { echo "the node exited:" >&2; cat "$work/node.log" >&2; exit 1; }
  sleep 0.2
done

# Fuzzing and coverage phases only: the stateful phase chains links the document does not declare.
# filter_too_much is a health check of hypothesis's own generation, not of the API: it failed a CI run once
# (GET /frameworks/{id}/questions, 2026-11-25) with every one of the 32,623 requests passing. too_slow is one too:
# on a machine at load average 5 it failed POST /tenders/{id}/criteria's generation (2026-11-28) while all 28,368
# requests passed, so the verdict depended on how busy the machine was.
status=0
# From the temporary directory: schemathesis keeps its own files (.schemathesis/) in the working directory.
# schemathesis.toml leaves the coverage phase out for a few operations that can only answer 404 here.
(cd "$work" && "$VENV/bin/schemathesis" --config-file "$ROOT/scripts/schemathesis.toml" run "$base/api/2.5/openapi.json" \
  --checks not_a_server_error,response_schema_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "$EXAMPLES" --seed "$SEED" --generation-database none --no-shrink \
  --suppress-health-check=filter_too_much,too_slow \
  --workers 2 --request-timeout 10 \
  --header 'Authorization: Bearer broker' \
  --no-color) || status=$?
if grep -q '"level":50' "$work/node.log"; then
  echo "the node logged errors:" >&2
  grep '"level":50' "$work/node.log" | head -20 >&2
  status=1
fi
exit "$status"
