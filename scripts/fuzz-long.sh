#!/usr/bin/env bash
# The long fuzz campaign: every target (or those named) run to 10,000,000 executions, one after
# another, at the lowest CPU priority; the same table as scripts/fuzz.sh at the end. Hours:
# docs/fuzzing.md has the rates. FUZZ_RUNS changes the count.
#
#   scripts/fuzz-long.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_RUNS="${FUZZ_RUNS:-10000000}" exec nice -n 19 bash scripts/fuzz.sh 0 "$@"
