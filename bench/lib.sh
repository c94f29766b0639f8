# Shared by the bench scripts: wrk installation and a measuring function.

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
