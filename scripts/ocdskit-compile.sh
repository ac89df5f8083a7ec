#!/usr/bin/env bash
# Compiles OCDS release packages with the Open Contracting Partnership's ocdskit (PyPI), as a data user would:
# `ocdskit compile` merges the releases of each ocid into one compiled release (docs/ocds.md §Feeds).
#
#   scripts/ocdskit-compile.sh --install          install ocdskit (once) into the venv and exit
#   scripts/ocdskit-compile.sh SCHEMA FILE...     compile the release packages in FILE... (concatenated JSON)
#                                                 against the release schema at SCHEMA; prints
#                                                 "N compiled releases" and exits 0, or the failure and 1
#
# Environment: OCDSKIT_VENV (default: <repo>/data/ocdskit-venv).
set -euo pipefail

usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

VERSION='1.7.0'
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${OCDSKIT_VENV:-$ROOT/data/ocdskit-venv}"

install() {
  if "$VENV/bin/pip" show ocdskit 2>/dev/null | grep -q "^Version: $VERSION$"; then return 0; fi
  python3 -m venv "$VENV" || { echo "cannot create $VENV: needs python3 with venv" >&2; return 1; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "ocdskit==$VERSION" || { echo "ocdskit==$VERSION did not install" >&2; return 1; }
}

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --install) install; exit $? ;;
  "") usage >&2; exit 2 ;;
  -*) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
esac

schema=$1
shift
[ "$#" -gt 0 ] || { usage >&2; exit 2; }
install
# The schema is given as a file: ocdskit would otherwise fetch the standard's schema and the extensions' over the network.
out=$(cat "$@" | "$VENV/bin/ocdskit" compile --schema "$schema") || { echo "ocdskit compile failed" >&2; exit 1; }
echo "$(grep -c . <<<"$out") compiled releases"
