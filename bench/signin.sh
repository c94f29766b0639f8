#!/usr/bin/env bash
# Sign-in round trips (nonce + personal_sign + verify) per second at 32 concurrent clients on
# SQLite and on PostgreSQL (PG_URL, default the local server's `postgres` database), and
# GET /api/me with a valid cookie (a cache hit) against the minimal actix-web program.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${DURATION:-10}"
CONNS="${CONNS:-64}"
CLIENTS="${CLIENTS:-32}"
SVC_PORT="${SVC_PORT:-18085}"
MIN_PORT="${MIN_PORT:-18086}"
PG_URL="${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
. bench/lib.sh
ensure_wrk
cargo build --release --locked --workspace --bins --examples >&2

temp_work

serve() { # serve DATABASE_URL
  kill "${svc:-}" 2>/dev/null || true; wait "${svc:-}" 2>/dev/null || true
  JM__SERVER__LISTEN="127.0.0.1:$SVC_PORT" JM__DATABASE__URL="$1" JM__DEMO__LOAD_ON_FIRST_START=false \
  JM__LOG__FILTER="${JM_BENCH_LOG:-warn}" JM__CHAIN__RPC_URLS='["http://127.0.0.1:9"]' \
    "$REL"/journal-market serve >"$work/svc.log" 2>&1 &
  svc=$!
  wait_for "http://127.0.0.1:$SVC_PORT/api/health/ready"
}

echo "| backend | sign-ins/s | p50 ms | p99 ms | errors |"
echo "|---|---|---|---|---|"
serve "sqlite://$work/bench.db"
read -r rate p50 p99 errs < <("$REL"/examples/signin_load "http://127.0.0.1:$SVC_PORT/api" "$CLIENTS" "$DURATION")
echo "| SQLite | $rate | $p50 | $p99 | $errs |"
if pg_isready -q -d "$PG_URL"; then
  db="jm_bench_$$"
  psql -q "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
  serve "${PG_URL%/*}/$db"
  read -r rate p50 p99 errs < <("$REL"/examples/signin_load "http://127.0.0.1:$SVC_PORT/api" "$CLIENTS" "$DURATION")
  echo "| PostgreSQL | $rate | $p50 | $p99 | $errs |"
fi

# A session cookie for /me, made by the real client.
key=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d
JM_SESSION_FILE="$work/session" "$REL"/jm --base-url "http://127.0.0.1:$SVC_PORT/api" login --private-key "$key" >/dev/null
cookie=$(cat "$work/session")
curl -sf "http://127.0.0.1:$SVC_PORT/api/me" -H "Cookie: $cookie" >"$work/me.json"
"$REL"/examples/minimal "$MIN_PORT" "/api/me=$work/me.json" &
min=$!
sleep 0.5
measure_cookie() {
  wrk -t2 -c"$CONNS" -d"${DURATION}s" --latency -H "Cookie: $cookie" "$1" | awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 } $1=="50%" { p50=ms($2) } $1=="99%" { p99=ms($2) }
    END { printf "%.0f %.3f %.3f\n", rps, p50, p99 }'
}
read -r s_rps s_p50 s_p99 < <(measure_cookie "http://127.0.0.1:$SVC_PORT/api/me")
read -r m_rps m_p50 m_p99 < <(measure_cookie "http://127.0.0.1:$MIN_PORT/api/me")
echo
echo "| GET /api/me (cookie) | req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|"
echo "| service | $s_rps | $s_p50 | $s_p99 |"
echo "| minimal | $m_rps | $m_p50 | $m_p99 |"
awk -v a="$s_rps" -v b="$m_rps" 'BEGIN { printf "ratio: %.0f%%\n", 100*a/b }'
if [ -n "${db:-}" ]; then
  kill "${svc:-}" 2>/dev/null || true; wait "${svc:-}" 2>/dev/null || true
  psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
fi
