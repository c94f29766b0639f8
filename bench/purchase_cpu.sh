#!/usr/bin/env bash
# CPU per purchase of the service and of anvil, several runs: `bench/purchase.sh`'s purchase
# phase alone, repeated on a fresh devnet each time (the demo seeding finished first), so two
# builds can be compared run by run. Rate limits are off so more buyers fit.
#   bash bench/purchase_cpu.sh [RELEASE_DIR] [BUYERS] [RUNS]
# RELEASE_DIR holds `journal-market` and `examples/purchase_load` (default: this checkout's
# release build, built here). Each run prints: purchases, per second, p50 ms, p95 ms, errors,
# then the service's and anvil's CPU per purchase in ms. LOADS=N (default 1) sends N rounds of
# purchases per devnet and adds up their CPU: one round of 16 buyers is 192 purchases, where
# one clock tick (10 ms) is 0.05 ms per purchase.
set -euo pipefail
cd "$(dirname "$0")/.."
SVC_PORT="${SVC_PORT:-18095}"
ANVIL_PORT="${ANVIL_PORT:-18546}"
. bench/lib.sh
REL_DIR="${1:-}"
BUYERS="${2:-16}"
RUNS="${3:-3}"
if [ -z "$REL_DIR" ]; then
  cargo build --release --locked --workspace --bins --examples >&2
  REL_DIR="$REL"
fi
for run in $(seq 1 "$RUNS"); do
  work=$(mktemp -d)
  JM__LIMITS__ENABLED=false JM__LOG__FORMAT=json \
  JM__LOG__FILTER="warn,journal_market=info,journal_market::http=warn" \
    start_devnet "$REL_DIR"
  api="http://127.0.0.1:$SVC_PORT/api"
  wait_seeded "$work/svc.log"
  anvil=$(pgrep -P "$svc" -f anvil | head -1)
  : >"$work/cpu.txt"
  rounds=""
  for _ in $(seq 1 "${LOADS:-1}"); do
    read -r n rate p50 p95 errs < <(CPU_PIDS="service:$svc,anvil:$anvil" \
      "$REL_DIR"/examples/purchase_load "$api" "$work/devnet.json" "$BUYERS" 2>>"$work/cpu.txt")
    rounds="$rounds; $n purchases, $rate/s, p50 $p50 ms, p95 $p95 ms, $errs errors"
  done
  # Ticks and purchases added up over the rounds; a tick is 10 ms (USER_HZ).
  cpu=$(awk '/^cpu / { t[$2] += $4; n[$2] += $5; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
    END { for (i = 1; i <= k; i++) printf "%s %.3f ms  ", order[i], t[order[i]] * 10 / n[order[i]] }' "$work/cpu.txt")
  echo "run $run${rounds}; CPU per purchase: $cpu"
  kill "$svc" 2>/dev/null || true
  wait "$svc" 2>/dev/null || true
  rm -rf "$work"
done
