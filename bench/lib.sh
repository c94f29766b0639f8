# Shared by the bench scripts: building, wrk installation, a measuring function, and starting
# the service and the chain.

# Load comes from one address, so the rate limits are off unless a script turns them on with
# limits above its load (high_limits).
export JM__LIMITS__ENABLED="${JM__LIMITS__ENABLED:-false}"
high_limits() {
  export JM__LIMITS__ENABLED=true
  local c
  for c in RPC AUTH PAY PUBLISH READS; do
    export JM__LIMITS__${c}__PER_MINUTE=1000000000 JM__LIMITS__${c}__BURST=1000000000
  done
}

# The release binaries (CARGO_TARGET_DIR is honoured), as an absolute path.
REL="$(realpath -m "${CARGO_TARGET_DIR:-target}")/release"

# build_release [CARGO_ARGS...]: node_modules (anvil), then the release binaries and examples
# (the load generators are loadgen/'s examples: pass --workspace, or -p journal-market-loadgen).
build_release() {
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  cargo build --release --locked "$@" --bins --examples >&2
}

# temp_work: $work, a temporary folder removed on exit, once the service ($svc) and the minimal
# program ($min), where started, are stopped.
temp_work() {
  work=$(mktemp -d)
  trap 'kill "${svc:-}" "${min:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
}

ensure_wrk() {
  if ! command -v wrk >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
  fi
}

# measure URL [BODY]: prints "rps p50_ms p99_ms" of wrk at $CONNS connections for $DURATION s;
# with BODY, sends it as a JSON POST; with WRK_LUA=<file>, wrk runs that script instead.
measure() {
  local url=$1 body=${2:-} script
  script=$(mktemp --suffix .lua)
  if [ -n "$body" ]; then
    cat >"$script" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("WRK_BODY")
LUA
  fi
  if [ -n "${WRK_LUA:-}" ]; then
    cp "$WRK_LUA" "$script"
    body=lua
  fi
  WRK_BODY="$body" wrk -t2 -c"$CONNS" -d"${DURATION}s" --latency ${body:+-s "$script"} "$url" >"$script.out"
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    $1=="50%" { p50=ms($2) }
    $1=="99%" { p99=ms($2) }
    /Non-2xx/ { bad=$NF }
    END { printf "%.0f %.3f %.3f\n", rps, p50, p99; if (bad) print "warning: " bad " non-2xx answers" > "/dev/stderr" }' "$script.out"
  rm -f "$script" "$script.out"
}

wait_for() {
  for _ in $(seq 1 300); do
    curl -sf "$1" >/dev/null && return 0
    sleep 0.2
  done
  echo "timed out waiting for $1" >&2
  return 1
}

# start_devnet [RELEASE_DIR]: `journal-market devnet` (from RELEASE_DIR, default $REL) on
# SVC_PORT with its anvil on ANVIL_PORT, its SQLite database and devnet.json in $work, logging to
# $work/svc.log; its pid in $svc, once ready. Other JM__ settings: set them on the call.
start_devnet() {
  JM__SERVER__LISTEN="127.0.0.1:$SVC_PORT" JM__DATABASE__URL="sqlite://$work/bench.db" \
    "${1:-$REL}"/journal-market devnet --anvil-port "$ANVIL_PORT" --out "$work/devnet.json" >"$work/svc.log" 2>&1 &
  svc=$!
  wait_for "http://127.0.0.1:$SVC_PORT/api/health/ready"
}

# wait_seeded LOG: waits until a `journal-market devnet` logging to LOG (with
# journal_market=info in its filter) has published its demo data: until then its seeding
# (audits, registrations, swaps) runs beside whatever is measured.
wait_seeded() {
  for _ in $(seq 1 600); do
    grep -q 'swaps, burn and votes are in' "$1" && return 0
    sleep 0.2
  done
  echo "timed out waiting for the demo data in $1" >&2
  return 1
}

# start_anvil PORT: the dev chain's node in the background (the flags of
# journal_market_devnet::anvil::DEV_CHAIN_ARGS), once it answers; its pid in $anvil.
start_anvil() {
  node_modules/.bin/anvil --host 127.0.0.1 --port "$1" --chain-id 4663 \
    --accounts 10 --balance 10000 --hardfork cancun --prune-history 256 >/dev/null 2>&1 &
  anvil=$!
  for _ in $(seq 1 100); do
    curl -sf -X POST -H 'content-type: application/json' \
      -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' \
      "http://127.0.0.1:$1" >/dev/null && return 0
    sleep 0.1
  done
  echo "anvil did not answer on port $1" >&2
  return 1
}

# start_instance I: `journal-market serve` on port SVC_PORT + I (logging to $work/svcI.log), its
# pid in ${svc[I]}, once ready; started again while it cannot start (the database may be
# restarting at that moment).
start_instance() {
  local port=$((SVC_PORT + $1))
  for _ in $(seq 1 60); do
    JM__SERVER__LISTEN="127.0.0.1:$port" "$REL/journal-market" serve >>"$work/svc$1.log" 2>&1 &
    svc[$1]=$!
    for _ in $(seq 1 100); do
      curl -sf "http://127.0.0.1:$port/api/health/ready" >/dev/null && return 0
      kill -0 "${svc[$1]}" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "${svc[$1]}" 2>/dev/null || true
    wait "${svc[$1]}" 2>/dev/null || true
    sleep 0.5
  done
  echo "instance $1 did not start" >&2
  return 1
}

# restart_instance I: instance I killed with SIGKILL, then started again (start_instance).
restart_instance() {
  kill -9 "${svc[$1]}" 2>/dev/null || true
  wait "${svc[$1]}" 2>/dev/null || true
  start_instance "$1"
}

# The outage runs of loadgen/examples/kill_restart (faults.sh, killrestart.sh). kr_setup NAME: $work, a
# temporary folder, and anvil on ANVIL_PORT (pid in $anvil); on exit the instances (${svc[@]}),
# anvil (resumed first, in case it is paused) and the load ($load) are stopped, the database
# $pgdb (jm_NAME_PID) dropped if kr_postgres created it, and $work removed.
kr_setup() {
  work=$(mktemp -d)
  pgdb="jm_$1_$$"
  svc=(); anvil=""; load=""; pg_created=""
  trap kr_cleanup EXIT
  start_anvil "$ANVIL_PORT"
}

kr_cleanup() {
  for p in "${svc[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  [ -n "$anvil" ] && kill -CONT "$anvil" 2>/dev/null
  kill $anvil $load 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "$pg_created" ] && psql -q "$PG_ADMIN_URL" -c "DROP DATABASE IF EXISTS $pgdb WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}

# kr_postgres: creates $pgdb on PG_ADMIN_URL; its URL in $db.
kr_postgres() {
  psql -q "$PG_ADMIN_URL" -c "CREATE DATABASE $pgdb" >/dev/null
  pg_created=1
  db="${PG_ADMIN_URL%/*}/$pgdb"
}

# kr_start N: the contracts deployed, N instances started (start_instance; their APIs, comma
# separated, in $apis) and seeded with the demo and the person-written journals.
kr_start() {
  local i
  apis=""
  for i in $(seq 0 $(($1 - 1))); do
    apis="${apis:+$apis,}http://127.0.0.1:$((SVC_PORT + i))/api"
  done
  "$REL"/examples/kill_restart deploy "http://127.0.0.1:$ANVIL_PORT" "$work/devnet.json"
  for i in $(seq 0 $(($1 - 1))); do start_instance "$i"; done
  (cd "$work" && "$REL/examples/kill_restart" seed "${apis%%,*}" "$work/devnet.json")
}

# kr_pending: how many payments of the database $db (SQLite or PostgreSQL) are pending.
kr_pending() {
  local q="select count(*) from payments where state='pending'"
  case "$db" in
    sqlite://*) python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "${db#sqlite://}" "$q" ;;
    *) psql -tAq "$db" -c "$q" ;;
  esac
}

# kr_verify: up to two minutes for the instances to reconcile what is pending, then the chain's
# transfers checked against the database $db.
kr_verify() {
  for _ in $(seq 1 120); do
    [ "$(kr_pending)" = 0 ] && break
    sleep 1
  done
  (cd "$work" && "$REL/examples/kill_restart" verify "$db" "$work/devnet.json")
}
