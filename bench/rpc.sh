#!/usr/bin/env bash
# The JSON-RPC proxy's cost: eth_blockNumber, a cached eth_getTransactionReceipt, and
# eth_getBalance of a different address on every call through POST /api/rpc versus straight to
# anvil, wrk on loopback at 32 connections. Identical calls in flight share one upstream request
# (the first two rows); the third row's calls never do. Prints a table, with the service's own
# CPU time per proxied call (from /proc, user + system).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10}"
CONNS="${CONNS:-32}"
SVC_PORT="${SVC_PORT:-18090}"
ANVIL_PORT="${ANVIL_PORT:-18545}"
. bench/lib.sh
# The rate limits are on, above the load: their cost is part of the figure.
high_limits
ensure_wrk
build_release --workspace

temp_work
JM__LOG__FILTER="${JM_BENCH_LOG:-warn}" start_devnet
anvil="http://127.0.0.1:$ANVIL_PORT"
proxy="http://127.0.0.1:$SVC_PORT/api/rpc"

# A mined transaction to look up (anvil's accounts are unlocked).
from=$(python3 -c "import json;d=json.load(open('$work/devnet.json'));print(d['accounts'][1]['address'])")
to=$(python3 -c "import json;d=json.load(open('$work/devnet.json'));print(d['accounts'][2]['address'])")
tx=$(curl -s "$anvil" -H 'content-type: application/json' \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_sendTransaction\",\"params\":[{\"from\":\"$from\",\"to\":\"$to\",\"value\":\"0x1\"}]}" \
  | python3 -c "import json,sys;print(json.load(sys.stdin)['result'])")

block='{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'
receipt="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getTransactionReceipt\",\"params\":[\"$tx\"]}"
# Receipts are kept once a reorg cannot reach them: 12 blocks on, after the chain watch (every
# 5 s) has seen that head.
curl -sf "$anvil" -H 'content-type: application/json' \
  -d '{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0xc"]}' >/dev/null
sleep 6
curl -sf "$proxy" -H 'content-type: application/json' -d "$receipt" >/dev/null  # warm the cache

# CPU ticks (user + system) the service has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$svc/stat"; }
hz=$(getconf CLK_TCK)

echo "| call | via proxy req/s | p50 ms | p99 ms | service CPU/call | anvil direct req/s | p50 ms | p99 ms | p50 added |"
echo "|---|---|---|---|---|---|---|---|---|"
# A different address on every call, so no two calls in flight are the same.
cat >"$work/balances.lua" <<'LUA'
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
request = function()
  n = n + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x%08x%032x","latest"]}', tid, n)
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, body)
end
LUA
balances=lua

for name in block receipt balances; do
  body=${!name}
  lua=$([ "$name" = balances ] && echo "$work/balances.lua" || true)
  t0=$(cpu_ticks)
  read -r p_rps p_p50 p_p99 < <(WRK_LUA="$lua" measure "$proxy" "$body")
  cpu=$(awk -v t="$(( $(cpu_ticks) - t0 ))" -v hz="$hz" -v rps="$p_rps" -v d="$DURATION" \
    'BEGIN { printf "%.1f µs", t / hz / (rps * d) * 1e6 }')
  read -r d_rps d_p50 d_p99 < <(WRK_LUA="$lua" measure "$anvil" "$body")
  added=$(awk -v a="$p_p50" -v b="$d_p50" 'BEGIN { printf "%+.3f ms", a-b }')
  case $name in
    block) label=eth_blockNumber ;;
    receipt) label="eth_getTransactionReceipt (cached)" ;;
    *) label="eth_getBalance, a new address each call (never shared)" ;;
  esac
  echo "| $label | $p_rps | $p_p50 | $p_p99 | $cpu | $d_rps | $d_p50 | $d_p99 | $added |"
done
