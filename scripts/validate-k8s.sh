#!/usr/bin/env bash
# Renders every kustomize overlay (and the base) and validates each object against the
# Kubernetes schemas, with no cluster. Exits non-zero with one line per problem.
#   bash scripts/validate-k8s.sh
# Installs what it needs, idempotently (CI: a fresh Debian machine, root):
#   kustomize: `kubectl kustomize` when kubectl is on PATH (the machine image ships it), else a
#              `kustomize` on PATH, else `go install sigs.k8s.io/kustomize/kustomize/v5` (Go proxy);
#   node deps: `npm ci` when node_modules lacks kubernetes-models, yaml or tsx.
set -euo pipefail

# The comment block above, as the usage text (--help, or a wrong option).
usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
case "${1:-}" in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

KUSTOMIZE_VERSION="${KUSTOMIZE_VERSION:-v5.5.0}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

render() {
  if command -v kubectl >/dev/null 2>&1 && kubectl kustomize --help >/dev/null 2>&1; then
    kubectl kustomize "$1"
  elif command -v kustomize >/dev/null 2>&1; then
    kustomize build "$1"
  else
    echo "validate-k8s: no kubectl or kustomize; installing kustomize ${KUSTOMIZE_VERSION} with go install" >&2
    command -v go >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq golang-go >/dev/null; }
    go install "sigs.k8s.io/kustomize/kustomize/v5@${KUSTOMIZE_VERSION}" >&2
    "$(go env GOPATH)/bin/kustomize" build "$1"
  fi
}

if [ ! -d node_modules/kubernetes-models ] || [ ! -d node_modules/yaml ] || [ ! -d node_modules/tsx ]; then
  echo "validate-k8s: installing node dev dependencies (npm ci)" >&2
  export npm_config_nodedir="${npm_config_nodedir:-$(dirname "$(dirname "$(command -v node)")")}"
  # npm 11 rejects this lockfile's missing optional platform entries (msgpackr-extract); npm install copes.
  npm ci --no-audit --no-fund >&2 || npm install --no-audit --no-fund --no-save >&2
fi

targets=(k8s/base)
for d in k8s/overlays/*/; do targets+=("${d%/}"); done

files=()
for t in "${targets[@]}"; do
  f="$out/$(echo "$t" | tr / _).yaml"
  if ! render "$t" >"$f" 2>"$f.err"; then
    echo "INVALID $t: kustomize failed:" >&2
    cat "$f.err" >&2
    exit 1
  fi
  files+=("$f")
done

# The base alone carries placeholders and no store; it is validated for shape, not deployed.
node --import=tsx scripts/validate-k8s.ts "${files[@]}"
echo "validate-k8s: ${#targets[@]} kustomizations rendered and valid (${targets[*]})"
