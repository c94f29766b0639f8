#!/usr/bin/env bash
# Installs the reference x402 Python packages (pinned in scripts/x402-requirements.txt) into
# .venv-x402, which tests/api/reference.rs drives the service with. Idempotent: pip runs only
# when the venv is missing or the requirements changed since the last install (a sha256 stamp
# inside the venv). The Node clients come from package.json (`npm ci`).
# Usage: bash scripts/x402-env.sh
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-x402
req=scripts/x402-requirements.txt
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$req" | cut -d' ' -f1)

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
rm -f "$stamp"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
# The drivers import what they need; a broken install fails here, not in a test.
"$venv/bin/python" -c 'import httpx, x402, x402.mcp, mcp.client.streamable_http, x402.http.clients.httpx, x402.mechanisms.evm.exact, x402.extensions.bazaar.facilitator, x402.extensions.sign_in_with_x'
"$venv/bin/x402conf" --help >/dev/null
echo "$want" >"$stamp"
