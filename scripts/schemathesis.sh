#!/usr/bin/env bash
# Runs schemathesis (pinned in scripts/schemathesis-requirements.txt, installed into .venv) with
# every check against /api/openapi.json of a devnet service built from this tree: a local anvil
# with the contracts, the demo data and the devnet's purchases and votes. The signed-in and paid
# operations get a real session: the cookie of a devnet buyer who bought a journal.
# Usage: bash scripts/schemathesis.sh [debug|release]   (the profile already built)
set -euo pipefail
cd "$(dirname "$0")/.."
profile="${1:-debug}"
bin="$(realpath -m "${CARGO_TARGET_DIR:-target}")/$profile"
PORT="${ST_PORT:-18590}"
ANVIL_PORT="${ST_ANVIL_PORT:-18591}"

if [ ! -x .venv/bin/schemathesis ]; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/schemathesis-requirements.txt
fi

work=$(mktemp -d)
svc=""
cleanup() { kill -INT "$svc" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# The rate limits are off: schemathesis sends hundreds of requests a second from one address
# (429 is documented on every operation; the limits have their own tests).
JM__SERVER__LISTEN="127.0.0.1:$PORT" JM__DATABASE__URL="sqlite://$work/st.db" JM__LIMITS__ENABLED=false \
  JM__LOG__FILTER="warn,journal_market=info" "$bin/journal-market" devnet --anvil-port "$ANVIL_PORT" \
  --out "$work/devnet.json" >"$work/svc.log" 2>&1 &
svc=$!
api="http://127.0.0.1:$PORT/api"
# Ready once the devnet's votes are in (the last thing it seeds).
for _ in $(seq 1 600); do
  grep -q "swaps, burn and votes are in" "$work/svc.log" && break
  kill -0 "$svc" 2>/dev/null || { cat "$work/svc.log" >&2; exit 1; }
  sleep 0.2
done
key=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(next(a["privateKey"] for a in d["accounts"] if a["role"]=="buyer"))' "$work/devnet.json")
JM_PRIVATE_KEY="$key" "$bin/jm" --base-url "$api" --session-file "$work/session" login >/dev/null
cookie=$(cat "$work/session")

.venv/bin/schemathesis --config-file scripts/schemathesis.toml run "$api/openapi.json" \
  --url "$api" --checks all --max-examples "${ST_EXAMPLES:-25}" --workers 2 \
  --header "Cookie: $cookie" --seed "${ST_SEED:-1}" --no-color \
  --exclude-path /auth/logout  # it would end the session the other operations are given
