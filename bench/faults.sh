#!/usr/bin/env bash
# Purchases through outages: PURCHASES (200) purchases by BUYERS (20) buyers, spread over a few
# minutes (PACE_MS between a buyer's purchases), on two instances sharing a fresh PostgreSQL
# database, while
#   (a) PostgreSQL is restarted PG_RESTARTS (3) times,
#   (b) anvil is paused with SIGSTOP for PAUSE_SECS (60) seconds, twice,
#   (c) one instance or the other is killed with SIGKILL every KILL_EVERY (3) seconds and started
#       again.
# Each purchase step is retried as a careful client would (the same payment and
# payment-identifier until it is settled or refused, to either instance). At the end the
# instances reconcile what is pending, every buyer signs in and reads every journal it bought,
# and the chain's USDG transfers are compared with the payments and unlocks: the run fails on a
# transfer without a settled payment, a double charge, a lost unlock or an unreadable purchase.
# It restarts the machine's PostgreSQL (PG_RESTART, default the first cluster pg_lsclusters
# lists): run it where nothing else uses that server.
set -euo pipefail
cd "$(dirname "$0")/.."
PURCHASES="${PURCHASES:-200}"
BUYERS="${BUYERS:-20}"
PACE_MS="${PACE_MS:-15000}"
KILL_EVERY="${KILL_EVERY:-3}"
PG_RESTARTS="${PG_RESTARTS:-3}"
PAUSE_SECS="${PAUSE_SECS:-60}"
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PG_RESTART="${PG_RESTART:-pg_ctlcluster $(pg_lsclusters -h | awk 'NR==1 {print $1, $2}') restart}"
SVC_PORT="${SVC_PORT:-18395}"
ANVIL_PORT="${ANVIL_PORT:-18746}"
. bench/lib.sh
build_release --workspace

kr_setup faults
kr_postgres
export JM__DATABASE__URL="$db" JM__CHAIN__DEVNET_FILE="$work/devnet.json" JM__LOG__FILTER=warn \
  JM__PAYMENTS__LEASE_SECS=3 JM__PAYMENTS__RECONCILE_EVERY_MS=500 JM__CHAIN__CHECK_INTERVAL_SECS=1 \
  JM__CHAIN__RPC_TIMEOUT_MS=2000 JM__DATABASE__ACQUIRE_TIMEOUT_SECS=2
kr_start 2

# The faults' timeline, in seconds from the start of the purchases: PostgreSQL restarts spread
# over the first two thirds, the two pauses at a quarter and at two thirds.
span=$(( PURCHASES / BUYERS * PACE_MS / 1000 ))
declare -a restarts=() pauses=($(( span / 4 )) $(( span * 2 / 3 )))
for k in $(seq 1 "$PG_RESTARTS"); do restarts+=($(( span * 2 * k / (3 * PG_RESTARTS) ))); done
echo "faults over ~${span} s: PostgreSQL restarts at ${restarts[*]} s; anvil paused ${PAUSE_SECS} s at ${pauses[*]} s; an instance killed every ${KILL_EVERY} s"

started=$(date +%s)
(cd "$work" && PACE_MS="$PACE_MS" "$REL/examples/kill_restart" run "$apis" "$work/devnet.json" \
  "$PURCHASES" "$BUYERS" >"$work/run.out" 2>&1) &
load=$!
kills=0; pg_done=0; paused_at=""; pauses_done=0; last_kill=$started
while kill -0 "$load" 2>/dev/null; do
  sleep 0.5
  now=$(( $(date +%s) - started ))
  if [ "$pg_done" -lt "$PG_RESTARTS" ] && [ "$now" -ge "${restarts[$pg_done]}" ]; then
    $PG_RESTART
    pg_done=$((pg_done + 1))
    echo "t=${now}s PostgreSQL restarted ($pg_done)"
  fi
  if [ -z "$paused_at" ] && [ "$pauses_done" -lt 2 ] && [ "$now" -ge "${pauses[$pauses_done]}" ]; then
    kill -STOP "$anvil"; paused_at=$now; echo "t=${now}s anvil paused"
  fi
  if [ -n "$paused_at" ] && [ $(( now - paused_at )) -ge "$PAUSE_SECS" ]; then
    kill -CONT "$anvil"; paused_at=""; pauses_done=$((pauses_done + 1)); echo "t=${now}s anvil resumed"
  fi
  if [ $(( $(date +%s) - last_kill )) -ge "$KILL_EVERY" ]; then
    victim=$((kills % 2))
    kills=$((kills + 1))
    restart_instance "$victim"
    last_kill=$(date +%s)
  fi
done
[ -n "$paused_at" ] && kill -CONT "$anvil" && pauses_done=$((pauses_done + 1))
wait "$load" || { cat "$work/run.out"; exit 1; }
load=""
cat "$work/run.out"
echo "faults: PostgreSQL restarted $pg_done times, anvil paused $pauses_done times for ${PAUSE_SECS} s, instances killed $kills times; $(( $(date +%s) - started )) s"
kr_verify
