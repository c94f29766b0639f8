#!/usr/bin/env bash
# Runs the service with everything it needs locally: a local anvil (chain 4663) with the dev
# contracts deployed (addresses and keys in data/devnet.json), a SQLite file under data/ and the
# embedded demo archive. Ctrl-C stops the service and anvil. Extra arguments go to
# `journal-market devnet` (e.g. --anvil-port 8546).
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
exec cargo run --release --locked --bin journal-market -- devnet "$@"
