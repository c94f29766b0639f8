#!/usr/bin/env bash
# The audit engine on public claim-verification data (FEVER, VitaminC, SciFact:
# audit/eval/public/README.md) through the API: a devnet service, the rows imported as archive
# entries with `journal-market import`, then each claim saved as a draft citing its entry and
# audited. HALF=report prints the half the engine was not tuned on (look at it once);
# PROFILE=debug uses the debug build.
# The engine alone on the same drafts: `cargo run --release -p journal-market-audit --example
# audit_public`.
set -euo pipefail
cd "$(dirname "$0")/.."
HALF="${HALF:-tune}"
SVC_PORT="${SVC_PORT:-18098}"
ANVIL_PORT="${ANVIL_PORT:-18548}"
. bench/lib.sh
# PROFILE=debug runs the debug binaries (a shorter build; the verdicts are the same).
if [ "${PROFILE:-release}" = debug ]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  cargo build --locked --workspace --bins --examples >&2
  REL="$(realpath -m "${CARGO_TARGET_DIR:-target}")/debug"
else
  build_release --workspace
fi

temp_work
JM__LOG__FILTER=warn JM__PUBLISH__DRAFTS_PER_DAY=1000 JM__PUBLISH__AUDITS_PER_DRAFT=1000000 \
JM__AUDIT__MAX_QUEUED_PER_WALLET=1000 \
  start_devnet
"$REL"/examples/audit_public --import "$work/public.json"
JM__DATABASE__URL="sqlite://$work/bench.db" "$REL"/journal-market import "$work/public.json" >&2
args=("http://127.0.0.1:$SVC_PORT/api" "$work/devnet.json")
[ "$HALF" = report ] && args+=(--report)
"$REL"/examples/audit_public_api "${args[@]}"
