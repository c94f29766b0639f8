#!/usr/bin/env bash
# The chain indexer: catch-up over BLOCKS blocks holding EVENTS events against a plain
# eth_getLogs sweep of the same range (loadgen/examples/index_bench.rs); then GET /api/token.json on the
# devnet service against the minimal program serving the same bytes (wrk, CONNS connections).
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS="${EVENTS:-20000}"
BLOCKS="${BLOCKS:-50000}"
DURATION="${DURATION:-10}"
CONNS="${CONNS:-64}"
SVC_PORT="${SVC_PORT:-18098}"
MIN_PORT="${MIN_PORT:-18099}"
ANVIL_PORT="${ANVIL_PORT:-18548}"
. bench/lib.sh
ensure_wrk
build_release --workspace

temp_work

read -r blocks events sweep index < <("$REL"/examples/index_bench "$work" "$EVENTS" "$BLOCKS")
echo "| catch-up over $blocks blocks, $events events | seconds | blocks/s | events/s |"
echo "|---|---|---|---|"
awk -v b="$blocks" -v e="$events" -v s="$sweep" -v i="$index" 'BEGIN {
  printf "| plain eth_getLogs sweep (2,000-block ranges) | %.2f | %.0f | %.0f |\n", s, b/s, e/s
  printf "| the indexer (ranges, decoding, rows, holders, cursor; SQLite) | %.2f | %.0f | %.0f |\n", i, b/i, e/i
  printf "\nindexer / sweep: %.0f%%\n\n", 100*s/i }'

JM__LOG__FILTER=warn start_devnet
api="http://127.0.0.1:$SVC_PORT/api"
for _ in $(seq 1 100); do
  curl -sf "$api/token.json" | grep -q '"swaps":[1-9]' && break
  sleep 0.3
done
curl -sf "$api/token.json" >"$work/token.json"
"$REL"/examples/minimal "$MIN_PORT" "/api/token.json=$work/token.json" &
min=$!
sleep 0.5
read -r s_rps s_p50 s_p99 < <(measure "$api/token.json")
read -r m_rps m_p50 m_p99 < <(measure "http://127.0.0.1:$MIN_PORT/api/token.json")
echo "| GET /api/token.json ($CONNS connections) | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
echo "| service | $s_rps | $s_p50 | $s_p99 |"
echo "| minimal | $m_rps | $m_p50 | $m_p99 |"
awk -v a="$s_rps" -v b="$m_rps" 'BEGIN { printf "ratio: %.0f%%\n", 100*a/b }'
