#!/usr/bin/env bash
# The soak run: two instances on one PostgreSQL database and one local anvil, SECS seconds (600)
# of mixed traffic alternating between them (loadgen/examples/soak.rs: reads 100/s, sign-ins 5/s, RPC
# 20/s, purchases 2/s), with the rate limits on above the load. Prints requests, 5xx, other
# errors, p50 and p99 per route class, and each instance's resident memory idle at start, and
# at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${SECS:-600}"
PG="${PG_URL:-postgres://postgres@127.0.0.1:5432}"
A_PORT="${A_PORT:-18390}"
B_PORT="${B_PORT:-18391}"
ANVIL_PORT="${ANVIL_PORT:-18746}"
. bench/lib.sh
high_limits
build_release --workspace

work=$(mktemp -d)
db="jm_soak_$$"
a=""; b=""; anvil=""
cleanup() {
  kill $a $b 2>/dev/null || true
  kill $anvil 2>/dev/null || true
  wait 2>/dev/null || true
  psql -q "$PG/postgres" -c "drop database if exists $db" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
psql -q "$PG/postgres" -c "create database $db" >/dev/null

start_anvil "$ANVIL_PORT"
"$REL"/examples/kill_restart deploy "http://127.0.0.1:$ANVIL_PORT" "$work/devnet.json"

export JM__DATABASE__URL="$PG/$db" JM__CHAIN__DEVNET_FILE="$work/devnet.json" \
  JM__LOG__FILTER=warn
JM__SERVER__LISTEN="127.0.0.1:$A_PORT" JM__PAYMENTS__INSTANCE_ID=a \
  "$REL/journal-market" serve >"$work/a.log" 2>&1 &
a=$!
wait_for "http://127.0.0.1:$A_PORT/api/health/ready"
JM__SERVER__LISTEN="127.0.0.1:$B_PORT" JM__PAYMENTS__INSTANCE_ID=b \
  JM__DEMO__LOAD_ON_FIRST_START=false "$REL/journal-market" serve >"$work/b.log" 2>&1 &
b=$!
wait_for "http://127.0.0.1:$B_PORT/api/health/ready"

rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
sleep 5
a_idle=$(rss $a); b_idle=$(rss $b)
"$REL"/examples/soak "$SECS" "$work/devnet.json" \
  "http://127.0.0.1:$A_PORT/api,http://127.0.0.1:$B_PORT/api" >"$work/soak.out"
a_end=$(rss $a); b_end=$(rss $b)
# The peak over the run (VmHWM).
hwm() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

echo "| class | requests | 5xx | other errors | p50 ms | p99 ms |"
echo "|---|---|---|---|---|---|"
awk '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$work/soak.out"
echo
echo "| instance | RSS idle MB | RSS at the end MB | peak RSS MB |"
echo "|---|---|---|---|"
echo "| a | $a_idle | $a_end | $(hwm $a) |"
echo "| b | $b_idle | $b_end | $(hwm $b) |"
grep -c '"level":"ERROR"\|ERROR' "$work/a.log" "$work/b.log" || true
