#!/usr/bin/env bash
# Purchases on the devnet (anvil mining instantly, the built-in settler): 402 challenges per
# second at 64 connections against the minimal program serving the same bytes; full purchases
# per second with p50/p95 at BUYERS concurrent buyers (and as many first purchases by wallets
# holding only USDG, each with a sponsored approval); the service's own time per payment
# (its total minus the time spent waiting on the chain), from the settlement actor's log; the
# same purchases as MCP paid calls (calls/s, p50, service CPU per call); and a
# sign-in-with-x re-read (GET /api/journals/{slug} with a fresh SIGN-IN-WITH-X proof per
# request: one signature check and one nonce written) against the plain detail read.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10}"
CONNS="${CONNS:-64}"
BUYERS="${BUYERS:-16}"
SVC_PORT="${SVC_PORT:-18095}"
MIN_PORT="${MIN_PORT:-18096}"
ANVIL_PORT="${ANVIL_PORT:-18546}"
. bench/lib.sh
ensure_wrk
build_release --workspace

temp_work
JM__LOG__FILTER="warn,journal_market=info,journal_market::http=warn,journal_market_actors::settlement=debug" JM__LOG__FORMAT=json \
  start_devnet
wait_seeded "$work/svc.log"
api="http://127.0.0.1:$SVC_PORT/api"
for _ in $(seq 1 50); do
  curl -sf "$api/config" | grep -q '"paymentsOpen":true' && break
  sleep 0.2
done
id=$(curl -sf "$api/journals" | python3 -c "import json,sys;print([j for j in json.load(sys.stdin)['journals'] if j['author']['swarm']][0]['journalId'])")
body="{\"journalId\":$id}"
curl -s -D "$work/challenge.headers" -X POST "$api/pay/burn" -H 'content-type: application/json' -d "$body" >"$work/challenge.json"
grep -i '^payment-required:' "$work/challenge.headers" | cut -d' ' -f2- | tr -d '\r' >"$work/challenge.header"
# The same status, header and body as the service's challenge.
"$REL"/examples/minimal "$MIN_PORT" "/api/pay/burn=$work/challenge.json@402@payment-required@$work/challenge.header" &
min=$!
sleep 0.5
read -r s_rps s_p50 s_p99 < <(measure "$api/pay/burn" "$body" 2>/dev/null)
read -r m_rps m_p50 m_p99 < <(measure "http://127.0.0.1:$MIN_PORT/api/pay/burn" "$body")
echo "| 402 challenge (POST /api/pay/burn, no header) | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
echo "| service | $s_rps | $s_p50 | $s_p99 |"
echo "| minimal | $m_rps | $m_p50 | $m_p99 |"
awk -v a="$s_rps" -v b="$m_rps" 'BEGIN { printf "ratio: %.0f%%\n\n", 100*a/b }'

# CPU per purchase over the buying alone (/proc), the service's and anvil's (its child).
anvil=$(pgrep -P "$svc" -f anvil | head -1)
read -r n rate p50 p95 errs < <(CPU_PIDS="service:$svc,anvil:$anvil" \
  "$REL"/examples/purchase_load "$api" "$work/devnet.json" "$BUYERS" 2>"$work/cpu.txt")
echo "| purchases ($BUYERS buyers) | count | per second | p50 ms | p95 ms | errors |"
echo "|---|---|---|---|---|---|"
echo "| swarm journals, one payment each | $n | $rate | $p50 | $p95 | $errs |"
awk '/^cpu / { printf "CPU per purchase (its 402 challenge and payment): %s %s ms\n", $2, $3 }' "$work/cpu.txt"
# The same purchases as MCP paid calls (tools/call read_journal: the payment-required result,
# then the payment in _meta), by as many new buyers.
read -r mn mrate mp50 mp95 merrs < <(VIA=mcp CPU_PIDS="service:$svc,anvil:$anvil" \
  "$REL"/examples/purchase_load "$api" "$work/devnet.json" "$BUYERS" 2>"$work/cpu_mcp.txt")
echo "| swarm journals, MCP paid call (read_journal) each | $mn | $mrate | $mp50 | $mp95 | $merrs |"
awk '/^cpu / { printf "CPU per MCP paid call (its payment-required result and payment): %s %s ms\n", $2, $3 }' "$work/cpu_mcp.txt"
awk -v a="$mrate" -v b="$rate" 'BEGIN { printf "MCP calls/s as a share of REST purchases/s: %.0f%%\n", 100*a/b }'
read -r sn srate sp50 sp95 serrs < <("$REL"/examples/sponsored_load "$api" "$work/devnet.json" "$BUYERS")
echo "| first purchases without gas (sponsored approval, then settle) | $sn | $srate | $sp50 | $sp95 | $serrs |"
python3 - "$work/svc.log" <<'PY'
import json, sys, statistics
own = []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    f = e.get("fields", {})
    if f.get("message") == "payment settled":
        own.append(float(f["total_ms"]) - float(f["chain_ms"]))
if own:
    own.sort()
    print(f"\nservice's own time per payment (total minus chain waits), {len(own)} payments: "
          f"median {statistics.median(own):.2f} ms, p95 {own[int(len(own)*0.95)-1]:.2f} ms")
PY

# Sign-in-with-x re-reads: proofs made ahead (a nonce each), each sent once by wrk (PROOFS must
# exceed what a DURATION run sends, or the rest are replays answered 401).
"$REL"/examples/siwx_proofs "$api" "$work/devnet.json" "${PROOFS:-200000}" >"$work/proofs.txt"
slug=$(head -1 "$work/proofs.txt")
cat >"$work/siwx.lua" <<LUA
local proofs, n, i = {}, 0, 0
for line in io.lines("$work/proofs.txt") do
  n = n + 1
  if n > 1 then proofs[#proofs + 1] = line end
end
-- Thread k takes proofs k, k+2, k+4…: "id" is set in each thread's own state by setup.
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
function init() i = id or 0 end
function request()
  i = i + 2
  return wrk.format("GET", nil, { ["SIGN-IN-WITH-X"] = proofs[(i % #proofs) + 1] })
end
LUA
read -r p_rps p_p50 p_p99 < <(measure "$api/journals/$slug")
read -r x_rps x_p50 x_p99 < <(WRK_LUA="$work/siwx.lua" measure "$api/journals/$slug")
echo
echo "| journal detail (GET /api/journals/{slug}) | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
echo "| plain | $p_rps | $p_p50 | $p_p99 |"
echo "| with a SIGN-IN-WITH-X proof (re-read) | $x_rps | $x_p50 | $x_p99 |"
awk -v a="$x_rps" -v b="$p_rps" 'BEGIN { printf "ratio: %.0f%%\n", 100*a/b }'
