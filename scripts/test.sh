#!/usr/bin/env bash
# Runs every check and test: formatting, lints, a short pass of every fuzz target, the contract
# artifacts, unit tests and the integration suite on SQLite, schemathesis against the OpenAPI
# document of a running devnet service, then the integration suite again on PostgreSQL when
# TEST_DATABASE_URL is set. Installs what it needs (cargo-fuzz pinned in scripts/fuzz.sh; npm
# packages pinned in package.json, including the reference x402 clients, playwright-core and
# axe-core for the browser tests; Debian's chromium; schemathesis pinned in
# scripts/schemathesis-requirements.txt into .venv; the reference x402 Python packages pinned in
# scripts/x402-requirements.txt into .venv-x402).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -f package.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
bash scripts/x402-env.sh
if ! cargo nextest --version >/dev/null 2>&1; then
  cargo install cargo-nextest --locked
fi

cargo fmt --all -- --check
# The product's crates (default-members); the load generators (loadgen/) too with
# JM_LINT_TOOLING=1.
cargo clippy --all-targets --locked -- -D warnings
if [ -n "${JM_LINT_TOOLING:-}" ]; then
  cargo clippy --workspace --all-targets --locked -- -D warnings
fi

echo "== fuzz targets, 30 s each (scripts/fuzz.sh; the long campaign is scripts/fuzz-long.sh)"
bash scripts/fuzz.sh 30

# The shared rate-limit tests use a Redis (TEST_REDIS_URL, by default the local one; started
# here when it is installed but not running).
if [ -z "${TEST_REDIS_URL:-}" ] && ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  if command -v redis-server >/dev/null; then
    redis-server --bind 127.0.0.1 --port 6379 --save '' --daemonize yes >/dev/null
    sleep 1
  fi
  if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
    echo "Redis is not reachable at 127.0.0.1:6379 (or set TEST_REDIS_URL)" >&2
    exit 1
  fi
fi

# The browser tests (tests/api/browser.rs) drive Debian's chromium, headless (JM_CHROMIUM names
# another binary).
if [ -z "${JM_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
fi

echo "== unit and integration tests on SQLite"
cargo nextest run --locked --no-fail-fast

echo "== schemathesis against /api/openapi.json of a devnet service"
# The service as released: no test fault points (the actors' `faults` feature is off).
cargo build --locked --bins
cargo test --locked -p journal-market-actors --lib fault_points
bash scripts/schemathesis.sh debug

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== integration tests on PostgreSQL"
  JM_TEST_DB=postgres cargo nextest run --locked --no-fail-fast --test api
fi
