#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/, docs/fuzzing.md) and runs each in turn for SECONDS (default
# 30), from its hand-made seeds (fuzz/corpus/TARGET) and the corpus grown by earlier runs
# (fuzz/work/TARGET, not committed). Prints per target the executions, the coverage reached
# (libFuzzer's `cov:` edges and `ft:` features) and whether it crashed; exits non-zero when any
# target crashed (the input is in fuzz/artifacts/TARGET/, reproduce it with
# `cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-…` in fuzz/).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     every target when none is named
#   FUZZ_RUNS=N scripts/fuzz.sh 0 [TARGET...]  N executions per target instead of a time
#
# Installs cargo-fuzz (pinned below) when missing. Uses the nightly toolchain when rustup has
# one, else stable: both build with `--sanitizer none` (stable cannot build a sanitizer; the
# targets and parsers are safe Rust, where a bug shows as a panic, which debug assertions and
# overflow checks, on in these builds, turn into crashes).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

CARGO_FUZZ_VERSION=0.13.2
seconds="${1:-30}"
shift || true
runs="${FUZZ_RUNS:-}"

if ! cargo fuzz --version 2>/dev/null | grep -qF "$CARGO_FUZZ_VERSION"; then
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
toolchain=()
if command -v rustup >/dev/null && rustup toolchain list | grep -q '^nightly'; then
  toolchain=(+nightly)
fi
fuzz=(cargo "${toolchain[@]}" fuzz)
# FUZZ_SANITIZER=address (nightly only) adds AddressSanitizer, about half the speed.
flags=(--sanitizer "${FUZZ_SANITIZER:-none}")

if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <("${fuzz[@]}" list)
fi

echo "== building ${#targets[@]} fuzz targets (cargo ${toolchain[*]:-(default toolchain)} fuzz, cargo-fuzz $CARGO_FUZZ_VERSION)"
"${fuzz[@]}" build "${flags[@]}"

# libFuzzer's options: a hung input (10 s) or 2 GB of memory is a crash too.
limits=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
if [ -n "$runs" ]; then
  limits+=(-runs="$runs")
  budget="$runs runs"
else
  limits+=(-max_total_time="$seconds")
  budget="$seconds s"
fi

failed=()
rows=()
for t in "${targets[@]}"; do
  mkdir -p "work/$t" "artifacts/$t"
  log="work/$t.log"
  echo "== fuzzing $t ($budget)"
  status=ok
  if ! "${fuzz[@]}" run "${flags[@]}" "$t" "work/$t" "corpus/$t" -- "${limits[@]}" >"$log" 2>&1; then
    status=CRASH
    failed+=("$t")
    grep -E "panicked at|ERROR: libFuzzer|Test unit written to|SUMMARY" "$log" | head -n 8 || true
  fi
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1 || true)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1 || true)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -n 1 || true)
  rows+=("$(printf '%-16s %-6s %12s %8s/s  %s' "$t" "$status" "${execs:-?}" "${rate:-?}" "${cov:-?}")")
done

echo
printf '%-16s %-6s %12s %10s  %s\n' target result executions rate "coverage (edges, features, corpus)"
printf '%s\n' "${rows[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "crashed: ${failed[*]} (inputs in fuzz/artifacts/, logs in fuzz/work/*.log)" >&2
  exit 1
fi
