#!/usr/bin/env bash
# A /token.json refresh against the size of the index (loadgen/examples/ledger_scale.rs): the index
# filled with each of COUNTS swaps (each with its token transfer, one burn per 100), then the
# refresh's database work timed.
# On SQLite; with LEDGER_BENCH_PG=<admin-url> (e.g. postgres://postgres@127.0.0.1:5432/postgres)
# on PostgreSQL too.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS="${COUNTS:-1000 1000000}"
. bench/lib.sh
cargo build --release --locked -p journal-market-loadgen --example ledger_scale >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

table() {
  echo "| $1: swaps indexed | fill (s) | refresh median (ms) | refresh min (ms) | runs |"
  echo "|---|---|---|---|---|"
  while read -r count fill median min runs; do
    printf "| %'d | %s | %s | %s | %s |\n" "$count" "$fill" "$median" "$min" "$runs"
  done
}
# shellcheck disable=SC2086
env -u LEDGER_BENCH_PG "$REL"/examples/ledger_scale "$work" $COUNTS | table SQLite
if [ -n "${LEDGER_BENCH_PG:-}" ]; then
  # shellcheck disable=SC2086
  "$REL"/examples/ledger_scale "$work" $COUNTS | table PostgreSQL
fi
