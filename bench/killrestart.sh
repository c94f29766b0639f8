#!/usr/bin/env bash
# Purchases while the service is killed: rounds of PURCHASES purchases by BUYERS new buyers on a
# local anvil while an instance of the service is killed with SIGKILL every KILL_EVERY seconds
# (0.5) and started again, until KILLS kills (0: one round). DB=sqlite (one instance) or
# DB=postgres (INSTANCES=2 share a fresh database on $PG_ADMIN_URL; the kills alternate between
# them and each retry of a purchase goes to the other one). At the end the instances reconcile
# what is pending, and the chain's USDG transfers are compared with the payments and unlocks
# the service recorded: the run fails on a transfer without a settled payment, a double charge,
# a lost unlock, or a bought journal its buyer cannot read.
set -euo pipefail
cd "$(dirname "$0")/.."
PURCHASES="${PURCHASES:-200}"
BUYERS="${BUYERS:-20}"
KILL_EVERY="${KILL_EVERY:-0.5}"
KILLS="${KILLS:-0}"
DB="${DB:-sqlite}"
INSTANCES="${INSTANCES:-$([ "$DB" = postgres ] && echo 2 || echo 1)}"
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
SVC_PORT="${SVC_PORT:-18295}"
ANVIL_PORT="${ANVIL_PORT:-18646}"
. bench/lib.sh
build_release --workspace

kr_setup killrestart
case "$DB" in
  sqlite) db="sqlite://$work/kr.db" ;;
  postgres) kr_postgres ;;
  *) echo "DB must be sqlite or postgres" >&2; exit 2 ;;
esac
export JM__DATABASE__URL="$db" JM__CHAIN__DEVNET_FILE="$work/devnet.json" JM__LOG__FILTER=warn \
  JM__PAYMENTS__LEASE_SECS=3 JM__PAYMENTS__RECONCILE_EVERY_MS=500

# The contracts, the service's database with the demo, the person-written journals.
kr_start "$INSTANCES"

started=$(date +%s)
kills=0; rounds=0
while :; do
  rounds=$((rounds + 1))
  (cd "$work" && "$REL/examples/kill_restart" run "$apis" "$work/devnet.json" \
    "$PURCHASES" "$BUYERS" >"$work/run.out" 2>&1) &
  load=$!
  while kill -0 "$load" 2>/dev/null; do
    sleep "$KILL_EVERY"
    kill -0 "$load" 2>/dev/null || break
    victim=$((kills % INSTANCES))
    kills=$((kills + 1))
    restart_instance "$victim"
  done
  wait "$load" || { cat "$work/run.out"; exit 1; }
  load=""
  echo "round $rounds: $(cat "$work/run.out")"
  [ "$kills" -ge "$KILLS" ] && break
done
echo "$DB, $INSTANCES instance(s): killed with SIGKILL $kills times in $(( $(date +%s) - started )) s, $rounds round(s) of $PURCHASES purchases"

# The instances reconcile what is pending (a lease of a killed instance ends in 3 s).
kr_verify
