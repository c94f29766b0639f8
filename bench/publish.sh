#!/usr/bin/env bash
# Public reads while audits run: p99 of GET /api/journals (wrk, $CONNS connections) alone, then
# while 50 audits at a time run with the built-in engine on the devnet service.
# The engine's own speed: `cargo run --release -p journal-market-audit --example audit_bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10}"
CONNS="${CONNS:-16}"
SVC_PORT="${SVC_PORT:-18097}"
ANVIL_PORT="${ANVIL_PORT:-18547}"
. bench/lib.sh
ensure_wrk
build_release --workspace

temp_work
# One author keeps 50 audits open: its bound (audit.max_queued_per_wallet) is lifted.
JM__LOG__FILTER=warn JM__PUBLISH__DRAFTS_PER_DAY=1000 JM__PUBLISH__AUDITS_PER_DRAFT=1000000 \
JM__AUDIT__MAX_QUEUED_PER_WALLET=1000 \
  start_devnet
api="http://127.0.0.1:$SVC_PORT/api"
# The devnet publishes its demo journals after it starts serving.
for _ in $(seq 1 100); do
  [ "$(curl -sf "$api/journals" | grep -o '"swarm":false' | wc -l)" -ge 3 ] && break
  sleep 0.2
done
read -r b_rps b_p50 b_p99 < <(measure "$api/journals")
"$REL"/examples/audit_load "$api" "$work/devnet.json" $((DURATION + 4)) >"$work/audits.out" &
load=$!
sleep 2
read -r l_rps l_p50 l_p99 < <(measure "$api/journals")
wait "$load"
read -r audits secs <"$work/audits.out"
echo "| GET /api/journals ($CONNS connections) | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
echo "| alone | $b_rps | $b_p50 | $b_p99 |"
echo "| while 50 audits run at a time | $l_rps | $l_p50 | $l_p99 |"
awk -v a="$audits" -v s="$secs" 'BEGIN { printf "\naudits: %d in %.1f s (%.0f per second)\n", a, s, a/s }'
