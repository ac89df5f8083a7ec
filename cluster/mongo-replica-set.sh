#!/usr/bin/env bash
# A three-member MongoDB replica set on this machine, for people who have mongod and mongosh installed
# (the build machines do not: CI uses a wire-compatible server, see scripts/mongo-test-server.sh).
#
#   cluster/mongo-replica-set.sh [DATA_DIR]          # starts rs0 on 127.0.0.1:27017-27019
#   STORE_URL="$(cluster/mongo-replica-set.sh --url)" npm run cluster -- --nodes 3
#
# Stop with: pkill of the three mongod processes it prints, or `mongosh --port 2701x --eval 'db.adminCommand({shutdown:1})'`.
set -euo pipefail

REPLICA_SET=rs0
PORTS=(27017 27018 27019)
URL="mongodb://127.0.0.1:${PORTS[0]},127.0.0.1:${PORTS[1]},127.0.0.1:${PORTS[2]}/registry?replicaSet=${REPLICA_SET}"

# The comment block above, as the usage text (--help, or a wrong option).
usage() { sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

case "${1:-}" in
  --url) echo "$URL"; exit 0 ;;
  -h | --help) usage; exit 0 ;;
  -*) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
esac

DATA_DIR="${1:-./data/mongo}"
for bin in mongod mongosh; do
  command -v "$bin" >/dev/null || { echo "$bin is not installed" >&2; exit 1; }
done

for port in "${PORTS[@]}"; do
  mkdir -p "$DATA_DIR/$port"
  # transactionLifetimeLimitSeconds as in k8s/overlays/dev/mongodb.yaml (docs/mongodb.md §Feed ordering on MongoDB).
  mongod --replSet "$REPLICA_SET" --port "$port" --bind_ip 127.0.0.1 --dbpath "$DATA_DIR/$port" \
    --setParameter transactionLifetimeLimitSeconds=10 --fork --logpath "$DATA_DIR/$port/mongod.log"
done

# Majority writes and causally consistent sessions (docs/architecture.md §MongoDB engine, §Sessions and causal tokens)
# need every member to be able to vote.
mongosh --quiet --port "${PORTS[0]}" --eval "
  try { rs.status(); print('replica set already initiated'); }
  catch (e) {
    rs.initiate({
      _id: '${REPLICA_SET}',
      members: [
        { _id: 0, host: '127.0.0.1:${PORTS[0]}', priority: 2 },
        { _id: 1, host: '127.0.0.1:${PORTS[1]}', priority: 1 },
        { _id: 2, host: '127.0.0.1:${PORTS[2]}', priority: 1 },
      ],
    });
  }
  while (!db.hello().isWritablePrimary) { sleep(200); }
  print('primary: ' + db.hello().primary);
"
echo "STORE_URL=$URL"
