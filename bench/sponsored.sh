#!/usr/bin/env bash
# Sponsored first purchases only, RUNS (5) times on one devnet: each run, 16 fresh wallets
# holding only USDG buy a swarm journal with an x402 erc20ApprovalGasSponsoring approval
# (loadgen/examples/sponsored_load). One line per run: purchases, per second, p50 ms, p95 ms, errors.
# To compare two commits, build each with its own CARGO_TARGET_DIR and run this with each,
# alternating (bench/purchase.sh's single run of 16 spreads too much to judge 10%).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-5}"
SVC_PORT="${SVC_PORT:-18095}"
ANVIL_PORT="${ANVIL_PORT:-18546}"
. bench/lib.sh
build_release --workspace

temp_work
JM__LOG__FILTER="warn,journal_market=info" start_devnet
wait_seeded "$work/svc.log"
api="http://127.0.0.1:$SVC_PORT/api"
for _ in $(seq 1 50); do
  curl -sf "$api/config" | grep -q '"paymentsOpen":true' && break
  sleep 0.2
done
echo "| run | purchases | per second | p50 ms | p95 ms | errors |"
echo "|---|---|---|---|---|---|"
for i in $(seq 1 "$RUNS"); do
  read -r n rate p50 p95 errs < <("$REL"/examples/sponsored_load "$api" "$work/devnet.json" 16)
  echo "| $i | $n | $rate | $p50 | $p95 | $errs |"
done
