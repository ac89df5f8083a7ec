#!/usr/bin/env bash
# Starts the node from the build: compiles first only when there is no build yet or a file of src/ (or tsconfig.json)
# is newer than it, then replaces itself with node, so that SIGTERM from a supervisor (sent to npm, which passes it
# to its child) reaches the node itself, which drains and exits.
#
#   npm start                 the node on the environment's configuration (the README's Configuration table)
#   scripts/start.sh          the same without npm
set -euo pipefail

# The comment block above, as the usage text (--help, or a wrong option).
usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
case "${1:-}" in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "unknown argument: $1 (the node takes only environment variables)" >&2; usage >&2; exit 2 ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
main=dist/src/main.js
if [ ! -f "$main" ] || [ -n "$(find src tsconfig.json -newer "$main" -print -quit)" ]; then
  echo "building: ${main} is missing or older than src/ (npm run build)" >&2
  # tsc writes its output even when it reports errors: a failed build leaves no main.js, so the next start builds again.
  node_modules/.bin/tsc -p tsconfig.json || { rm -f "$main"; exit 1; }
fi
exec node "$main"
