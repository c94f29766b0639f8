#!/usr/bin/env bash
# Purchases while the service is killed: PURCHASES purchases by BUYERS buyers on a local anvil
# while the service (SQLite) is killed with SIGKILL every KILL_EVERY seconds (0.5) and started again.
# At the end one clean instance reconciles what is pending, and the chain's USDG transfers are
# compared with the payments and unlocks the service recorded: the run fails on a transfer
# without a settled payment, a double charge or a lost unlock.
set -euo pipefail
cd "$(dirname "$0")/.."
PURCHASES="${PURCHASES:-200}"
BUYERS="${BUYERS:-20}"
KILL_EVERY="${KILL_EVERY:-0.5}"
SVC_PORT="${SVC_PORT:-18295}"
ANVIL_PORT="${ANVIL_PORT:-18646}"
. bench/lib.sh
npm ci --no-audit --no-fund --loglevel=error >/dev/null
cargo build --release --locked --bins --examples >&2

work=$(mktemp -d)
svc=""; anvil=""; load=""
cleanup() {
  kill -9 $svc 2>/dev/null || true
  kill $anvil $load 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The dev chain's flags (jm_chain::anvil::DEV_CHAIN_ARGS).
node_modules/.bin/anvil --host 127.0.0.1 --port "$ANVIL_PORT" --chain-id 4663 \
  --accounts 10 --balance 10000 --hardfork cancun --prune-history 256 >/dev/null 2>&1 &
anvil=$!
api="http://127.0.0.1:$SVC_PORT/api"
db="sqlite://$work/kr.db"
export JM__SERVER__LISTEN="127.0.0.1:$SVC_PORT" JM__DATABASE__URL="$db" \
  JM__CHAIN__DEVNET_FILE="$work/devnet.json" JM__LOG__FILTER=warn \
  JM__PAYMENTS__LEASE_SECS=3 JM__PAYMENTS__RECONCILE_EVERY_MS=500

start() {
  "$REL/journal-market" serve >>"$work/svc.log" 2>&1 &
  svc=$!
  wait_for "$api/health/ready"
}

# The contracts, the service's database with the demo, the person-written journals.
for _ in $(seq 1 100); do
  curl -sf -X POST -H 'content-type: application/json' \
    -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' \
    "http://127.0.0.1:$ANVIL_PORT" >/dev/null && break
  sleep 0.1
done
"$REL"/examples/kill_restart deploy "http://127.0.0.1:$ANVIL_PORT" "$work/devnet.json"
start
(cd "$work" && "$REL/examples/kill_restart" seed "$api" "$work/devnet.json")

started=$(date +%s)
(cd "$work" && "$REL/examples/kill_restart" run "$api" "$work/devnet.json" \
  "$PURCHASES" "$BUYERS" >"$work/run.out" 2>&1) &
load=$!
kills=0
while kill -0 "$load" 2>/dev/null; do
  sleep "$KILL_EVERY"
  kill -0 "$load" 2>/dev/null || break
  kill -9 "$svc" 2>/dev/null || true
  wait "$svc" 2>/dev/null || true
  kills=$((kills + 1))
  start
done
wait "$load" || { cat "$work/run.out"; exit 1; }
load=""
cat "$work/run.out"
echo "service killed with SIGKILL $kills times in $(( $(date +%s) - started )) s"

# The last instance reconciles what is pending (a lease of a killed instance ends in 3 s).
for _ in $(seq 1 120); do
  pending=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from payments where state='pending'\").fetchone()[0])" "$work/kr.db")
  [ "$pending" = 0 ] && break
  sleep 1
done
(cd "$work" && "$REL/examples/kill_restart" verify "$db" "$work/devnet.json")
