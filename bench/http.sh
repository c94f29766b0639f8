#!/usr/bin/env bash
# Throughput and latency of the public reads (two API lists and a journal's page) against a minimal actix-web program serving the same
# bytes from memory. wrk on loopback, 64 connections, 2 threads, DURATION seconds per target.
# Installs wrk from Debian's packages when it is missing. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10}"
CONNS="${CONNS:-64}"
SVC_PORT="${SVC_PORT:-18080}"
MIN_PORT="${MIN_PORT:-18081}"

. bench/lib.sh
# The rate limits are on, above the load: their cost is part of the figure.
high_limits
ensure_wrk
cargo build --release --locked --workspace --bins --examples >&2

work=$(mktemp -d)
cleanup() { kill "${svc:-}" "${min:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

JM__SERVER__LISTEN="127.0.0.1:$SVC_PORT" \
JM__DATABASE__URL="sqlite://$work/bench.db" \
JM__LOG__FILTER="${JM_BENCH_LOG:-warn}" \
  "$REL"/journal-market serve >"$work/svc.log" 2>&1 &
svc=$!
wait_for "http://127.0.0.1:$SVC_PORT/api/health/ready"

# The first journal's public page, beside the API's reads.
slug=$(curl -sf "http://127.0.0.1:$SVC_PORT/api/journals" | python3 -c 'import json,sys; print(json.load(sys.stdin)["journals"][0]["slug"])')
paths=(/api/journals /api/entries.json "/journal/$slug")

args=()
for path in "${paths[@]}"; do
  file="$work/$(echo "$path" | tr '/.' '__')"
  curl -sf "http://127.0.0.1:$SVC_PORT$path" >"$file"
  args+=("$path=$file")
done
"$REL"/examples/minimal "$MIN_PORT" "${args[@]}" &
min=$!
sleep 0.5

echo "| endpoint | service req/s | p50 ms | p99 ms | minimal req/s | p50 ms | p99 ms | ratio |"
echo "|---|---|---|---|---|---|---|---|"
for path in "${paths[@]}"; do
  read -r s_rps s_p50 s_p99 < <(measure "http://127.0.0.1:$SVC_PORT$path")
  read -r m_rps m_p50 m_p99 < <(measure "http://127.0.0.1:$MIN_PORT$path")
  ratio=$(awk -v a="$s_rps" -v b="$m_rps" 'BEGIN { printf "%.0f%%", 100*a/b }')
  echo "| $path | $s_rps | $s_p50 | $s_p99 | $m_rps | $m_p50 | $m_p99 | $ratio |"
done
