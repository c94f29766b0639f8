#!/usr/bin/env bash
# The files and crates one purchase runs code in: the debug build's `journal-market devnet`
# under callgrind, instrumented only while `jm buy` buys one swarm journal (its reads, the 402
# challenge and the payment) and 3 s after, then for as long with no request (the background
# actors' and indexer's own work). Prints the workspace files of each window and those of the
# purchase alone (run during the purchase, not when idle); the audit, devnet, client and
# migration crates (the seeding's background and the command's own code) are left out.
# Needs valgrind (installed from Debian's packages when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-18200}"
ANVIL_PORT="${ANVIL_PORT:-18600}"
if ! command -v valgrind >/dev/null; then
  (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
cargo build --locked --bins -p journal-market -p journal-market-client >&2
DEBUG="$(realpath -m "${CARGO_TARGET_DIR:-target}")/debug"
work=$(mktemp -d)
trap 'kill "${vg:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
JM__SERVER__LISTEN="127.0.0.1:$PORT" JM__DATABASE__URL="sqlite://$work/db.db" JM__LIMITS__ENABLED=false \
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" \
  "$DEBUG"/journal-market devnet --anvil-port "$ANVIL_PORT" --out "$work/devnet.json" >"$work/svc.log" 2>&1 &
vg=$!
for _ in $(seq 1 1800); do
  grep -q 'swaps, burn and votes are in' "$work/svc.log" && break
  sleep 0.5
done
export JM_BASE_URL="http://127.0.0.1:$PORT/api" JM_SESSION_FILE="$work/session"
slug=$(curl -sf "$JM_BASE_URL/journals" | python3 -c "import json,sys;print([j for j in json.load(sys.stdin)['journals'] if j['author']['swarm']][0]['slug'])")
key=$(python3 -c "import json;print([a['privateKey'] for a in json.load(open('$work/devnet.json'))['accounts'] if a['role']=='buyer'][1])")
window() { # COMMAND...: instrument, run it, stop, dump
  callgrind_control -i on "$vg" >/dev/null
  "$@"
  callgrind_control -i off "$vg" >/dev/null
  callgrind_control -d "$vg" >/dev/null
}
start=$(date +%s.%N)
window bash -c "'$DEBUG'/jm buy '$slug' --private-key '$key' --rpc-url http://127.0.0.1:$ANVIL_PORT >/dev/null; sleep 3"
took=$(echo "$(date +%s.%N) - $start" | bc)
window sleep "$took"
# A workspace file as `crate-dir/src/…` (or `src/…`), whichever checkout built it: a shared
# CARGO_TARGET_DIR keeps another checkout's paths for crates that did not change.
members=$(ls -d */src | cut -d/ -f1 | paste -sd'|')
files() {
  callgrind_annotate --threshold=100 "$1" 2>/dev/null | grep -oE "[^ ]*\.rs" |
    grep -v -e '/\.cargo/' -e '^/rustc/' -e '^/rust/' -e '/\.rustup/' -e '/target/' -e '://' |
    sed -E "s#^/.*/(($members)/src/.*)\$#\\1#; t; s#^/.*/(src/.*)\$#\\1#" |
    grep -E "^(($members)/)?src/" | grep -vE '^(audit|devnet|client|migration|loadgen)/' | sort -u
}
files "$work/cg.out.1" >"$work/purchase"
files "$work/cg.out.2" >"$work/idle"
comm -23 "$work/purchase" "$work/idle" >"$work/only"
for w in purchase idle only; do
  printf '%s: %s files; %s\n' "$w" "$(wc -l <"$work/$w")" \
    "$(cut -d/ -f1 "$work/$w" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}')"
done
[ -n "${LIST:-}" ] && cat "$work/only"
exit 0
