"""The MCP endpoint driven by the reference clients, unchanged: the `mcp` SDK (1.30.0,
streamable HTTP) and the `x402` package's MCP binding client (`x402.mcp.x402MCPSession`, 2.25.0,
exact EVM scheme).

    python mcp_client.py buy URL --slug SLUG [--payer ADDR] [--payment-id ID]
    python mcp_client.py retry URL --slug SLUG --payment-id ID
    python mcp_client.py reread URL --slug SLUG

--key / --rpc default to $X402_PRIVATE_KEY / $X402_RPC_URL. URL is the MCP endpoint (…/mcp).

- buy: lists the tools, calls read_journal once without paying (the payment-required result as
  the server sent it), then through x402MCPSession (which pays and retries once); while a result
  names a `nextCall` (a person-written journal's fee paid), makes that call the same way.
- retry: one payment created by the reference x402 client for the challenge, sent twice in
  `_meta["x402/payment"]` (the answer was lost; the same payment-identifier rides in it).
- reread: a sign-in-with-x proof signed by the reference functions for the challenge's
  `sign-in-with-x` info, sent in `_meta["x402/sign-in-with-x"]` (this service's key: the binding
  has none), nothing paid.

In every mode each result's `structuredContent`, error results included, is validated against
the tool's listed `outputSchema` with `jsonschema` (the validator the SDK itself applies, to
successful results only), as a strict client does: `schemaChecks` lists what each check found.

Prints ONE JSON object on stdout; the Rust tests judge. The session is the plain
`streamablehttp_client` + `ClientSession` (the reference `create_x402_mcp_client` only speaks SSE).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import traceback
from typing import Any

import jsonschema
from eth_account import Account
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from x402 import x402Client
from x402.extensions.payment_identifier import (
    PAYMENT_IDENTIFIER,
    append_payment_identifier_to_extensions,
    generate_payment_id,
)
from x402.extensions.sign_in_with_x.client import create_siwx_payload
from x402.extensions.sign_in_with_x.encode import encode_siwx_header
from x402.mcp import x402MCPSession
from x402.mechanisms.evm.exact import ExactEvmScheme
from x402.mechanisms.evm.signers import EthAccountSignerWithRPC
from x402.schemas import PaymentRequired

TOOL = "read_journal"
SIWX_META = "x402/sign-in-with-x"


class PaymentIdentifierClientExtension:
    """As in py_client.py: adds `payment-identifier.info.id` when the server declared it."""

    key = PAYMENT_IDENTIFIER

    def __init__(self, fixed_id: str | None = None) -> None:
        self.fixed_id = fixed_id

    def enrich_payment_payload(self, payload: Any, payment_required: Any) -> Any:
        ext = dict(payload.extensions or payment_required.extensions or {})
        append_payment_identifier_to_extensions(ext, self.fixed_id or generate_payment_id())
        return payload.model_copy(update={"extensions": ext})


def plain(result: Any) -> dict[str, Any]:
    """A CallToolResult as JSON (by alias: isError, structuredContent, _meta)."""
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


class Strict:
    """Validates each result against its tool's outputSchema, error results included."""

    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}
        self.checks: list[dict[str, Any]] = []

    async def load(self, session: ClientSession) -> list[str]:
        tools = (await session.list_tools()).tools
        self.schemas = {t.name: t.outputSchema for t in tools}
        return [t.name for t in tools]

    def check(self, name: str, result: Any) -> Any:
        schema = self.schemas.get(name)
        found = None
        if schema is None:
            found = "the tool lists no outputSchema"
        elif result.structuredContent is None:
            found = "no structuredContent"
        else:
            try:
                jsonschema.validate(result.structuredContent, schema)
            except jsonschema.ValidationError as e:
                found = e.message
        self.checks.append({"tool": name, "isError": bool(result.isError), "error": found})
        return result


def x402_client(account: Any, rpc: str, payment_id: str | None) -> x402Client:
    client = x402Client()
    client.register("eip155:4663", ExactEvmScheme(EthAccountSignerWithRPC(account, rpc)))
    client.set_spend_controls(False)
    client.register_extension(PaymentIdentifierClientExtension(payment_id))
    return client


async def buy(
    session: ClientSession, args: argparse.Namespace, out: dict[str, Any], client: x402Client, strict: Strict
) -> None:
    out["tools"] = await strict.load(session)
    arguments: dict[str, Any] = {"slug": args.slug}
    if args.payer:
        arguments["payer"] = args.payer
    out["probe"] = plain(strict.check(TOOL, await session.call_tool(TOOL, arguments)))
    paying = x402MCPSession(session, client)
    calls = []
    name = TOOL
    for _ in range(3):
        r = await paying.call_tool(name, arguments)
        calls.append(
            {
                "arguments": arguments,
                "paymentMade": r.payment_made,
                "isError": r.is_error,
                "paymentResponse": (
                    r.payment_response.model_dump(mode="json", by_alias=True, exclude_none=True)
                    if hasattr(r.payment_response, "model_dump")
                    else r.payment_response
                ),
                "paymentResponseParses": hasattr(r.payment_response, "model_dump"),
                "result": plain(strict.check(name, r.raw_result)),
            }
        )
        nxt = (r.raw_result.structuredContent or {}).get("nextCall")
        if r.is_error or not nxt:
            break
        name, arguments = nxt["name"], nxt["arguments"]
    out["calls"] = calls


async def challenge(session: ClientSession, slug: str, strict: Strict) -> tuple[dict[str, Any], PaymentRequired]:
    await strict.load(session)
    probe = strict.check(TOOL, await session.call_tool(TOOL, {"slug": slug}))
    if not probe.isError or not probe.structuredContent:
        raise SystemExit(f"no payment-required result: {plain(probe)}")
    return plain(probe), PaymentRequired.model_validate(probe.structuredContent)


async def retry(
    session: ClientSession, args: argparse.Namespace, out: dict[str, Any], client: x402Client, strict: Strict
) -> None:
    out["probe"], pr = await challenge(session, args.slug, strict)
    payload = await client.create_payment_payload(pr)
    meta = {"x402/payment": payload.model_dump(by_alias=True)}
    out["payment"] = payload.model_dump(mode="json", by_alias=True)
    call = lambda: session.call_tool(TOOL, {"slug": args.slug}, meta=meta)  # noqa: E731
    out["first"] = plain(strict.check(TOOL, await call()))
    out["again"] = plain(strict.check(TOOL, await call()))
    # A malformed payment: the refusal is an error result a strict client still accepts.
    bad = {"x402/payment": {"x402Version": 2}}
    out["malformed"] = plain(strict.check(TOOL, await session.call_tool(TOOL, {"slug": args.slug}, meta=bad)))


async def reread(
    session: ClientSession, args: argparse.Namespace, out: dict[str, Any], account: Any, strict: Strict
) -> None:
    out["probe"], pr = await challenge(session, args.slug, strict)
    ext = (pr.extensions or {}).get("sign-in-with-x") or {}
    info = dict(ext.get("info") or {})
    chain = next(c for c in ext.get("supportedChains") or [] if c.get("type") == "eip191")
    info.update({"chainId": chain["chainId"], "type": chain["type"]})
    # The challenge is bound to the resource it names (the journal's text URL, on this site).
    proof = await create_siwx_payload(info, account, pr.resource.url)
    meta = {SIWX_META: encode_siwx_header(proof)}
    out["reread"] = plain(strict.check(TOOL, await session.call_tool(TOOL, {"slug": args.slug}, meta=meta)))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    key = args.key or os.environ.get("X402_PRIVATE_KEY")
    rpc = args.rpc or os.environ.get("X402_RPC_URL")
    if not key or not rpc:
        raise SystemExit("need --key/--rpc or X402_PRIVATE_KEY/X402_RPC_URL")
    account = Account.from_key(key)
    out: dict[str, Any] = {"payer": account.address, "url": args.url}
    client = x402_client(account, rpc, args.payment_id)
    strict = Strict()
    try:
        async with streamablehttp_client(args.url) as (read, write, _):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                out["protocolVersion"] = init.protocolVersion
                out["serverName"] = init.serverInfo.name
                if args.mode == "buy":
                    await buy(session, args, out, client, strict)
                elif args.mode == "retry":
                    await retry(session, args, out, client, strict)
                else:
                    await reread(session, args, out, account, strict)
        out["ok"] = True
    except Exception as e:  # noqa: BLE001
        out["ok"] = False
        out["error"] = f"{type(e).__name__}: {e}"
        out["trace"] = traceback.format_exc(limit=6)
    out["schemaChecks"] = strict.checks
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=["buy", "retry", "reread"])
    p.add_argument("url")
    p.add_argument("--slug", required=True)
    p.add_argument("--payer")
    p.add_argument("--payment-id")
    p.add_argument("--key")
    p.add_argument("--rpc")
    args = p.parse_args()
    result = asyncio.run(run(args))
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
