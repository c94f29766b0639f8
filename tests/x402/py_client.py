"""One GET through the reference Python x402 client (x402 2.25.0, httpx, async), unchanged.

    python py_client.py get URL [--key HEX] [--rpc URL] [--siwx] [--payment-id ID] [--no-pay]
    python py_client.py post URL --json BODY [same options]

--key / --rpc default to $X402_PRIVATE_KEY / $X402_RPC_URL. The client is the reference one:
x402Client + ExactEvmScheme(EthAccountSignerWithRPC(account, rpc)) (so erc20ApprovalGasSponsoring
is signed when the server declares it and the wallet has no Permit2 allowance), spend controls
off (the asset is not a default one), a payment-identifier client extension (the reference ships
none; this is the minimal one of research/x402-extensions.md §7, with the id pinned by
--payment-id), and with --siwx the reference SIWX hook (create_siwx_client_hook). --no-pay aborts
payment creation in a before-payment hook, so nothing is ever signed for a payment.

Prints ONE JSON object on stdout: every HTTP exchange the x402 transport made (what it sent,
what came back, headers decoded), and the final answer (status, body, decoded PAYMENT-RESPONSE
with its `extensions`). Exit code 0 whenever that object could be printed; the Rust tests judge.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import sys
import traceback
from typing import Any

import httpx
from eth_account import Account
from x402 import AbortResult, x402Client
from x402.extensions.payment_identifier import (
    PAYMENT_IDENTIFIER,
    append_payment_identifier_to_extensions,
    generate_payment_id,
)
from x402.extensions.sign_in_with_x import create_siwx_client_hook
from x402.extensions.sign_in_with_x.client import assert_siwx_challenge_bound_to_origin
from x402.http import x402HTTPClient
from x402.http.clients.httpx import x402AsyncTransport
from x402.http.utils import decode_payment_response_header
from x402.mechanisms.evm.exact import ExactEvmScheme
from x402.mechanisms.evm.signers import EthAccountSignerWithRPC

BODY_LIMIT = 64 * 1024


class PaymentIdentifierClientExtension:
    """Adds `payment-identifier.info.id` when the server declared the extension (not shipped by
    x402: research/x402-extensions.md §7). A pinned id is used for every payment this client
    makes."""

    key = PAYMENT_IDENTIFIER

    def __init__(self, fixed_id: str | None = None) -> None:
        self.fixed_id = fixed_id

    def enrich_payment_payload(self, payload: Any, payment_required: Any) -> Any:
        ext = dict(payload.extensions or payment_required.extensions or {})
        append_payment_identifier_to_extensions(ext, self.fixed_id or generate_payment_id())
        return payload.model_copy(update={"extensions": ext})


def b64json(value: str | None) -> Any:
    """A base64(JSON) header decoded (standard alphabet, urlsafe tolerated), or an error note."""
    if not value:
        return None
    try:
        padded = value + "=" * (-len(value) % 4)
        try:
            raw = base64.b64decode(padded, validate=True)
        except Exception:
            raw = base64.urlsafe_b64decode(padded)
        return json.loads(raw)
    except Exception as e:  # noqa: BLE001
        return {"_undecodable": value[:200], "_error": str(e)}


def body_of(response: httpx.Response) -> Any:
    text = response.content[:BODY_LIMIT].decode("utf-8", "replace")
    ctype = response.headers.get("content-type", "")
    if "json" in ctype:
        try:
            return json.loads(response.content)
        except Exception:  # noqa: BLE001
            return text
    return text


def headers_of(response: httpx.Response) -> dict[str, str]:
    keep = ("content-type", "cache-control", "retry-after", "set-cookie", "location")
    return {k: response.headers[k] for k in keep if k in response.headers}


def describe(response: httpx.Response) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": response.status_code,
        "headers": headers_of(response),
        "body": body_of(response),
        "paymentRequired": b64json(response.headers.get("payment-required")),
        "paymentResponse": b64json(response.headers.get("payment-response")),
    }
    raw = response.headers.get("payment-response")
    if raw:
        out["paymentResponseHeader"] = raw
        # Whether the reference model accepts it (as its client does on every paid answer).
        try:
            decode_payment_response_header(raw)
            out["paymentResponseParses"] = True
        except Exception as e:  # noqa: BLE001
            out["paymentResponseParses"] = str(e)
    return out


class RecordingTransport(httpx.AsyncBaseTransport):
    """The transport under the x402 one: it sees each request the x402 transport sends."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.exchanges: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        sent_payment = request.headers.get("payment-signature")
        sent_siwx = request.headers.get("sign-in-with-x")
        entry: dict[str, Any] = {
            "method": request.method,
            "url": str(request.url),
            "sent": {
                "payment-signature": sent_payment is not None,
                "sign-in-with-x": sent_siwx is not None,
            },
        }
        if sent_payment:
            entry["paymentSignature"] = b64json(sent_payment)
        if sent_siwx:
            entry["signInWithX"] = b64json(sent_siwx)
        self.exchanges.append(entry)
        response = await self.inner.handle_async_request(request)
        await response.aread()
        entry.update(describe(response))
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


async def get(args: argparse.Namespace) -> dict[str, Any]:
    key = args.key or os.environ.get("X402_PRIVATE_KEY")
    rpc = args.rpc or os.environ.get("X402_RPC_URL")
    if not key or not rpc:
        raise SystemExit("need --key/--rpc or X402_PRIVATE_KEY/X402_RPC_URL")
    account = Account.from_key(key)
    out: dict[str, Any] = {"payer": account.address, "url": args.url}

    client = x402Client()
    client.register("eip155:4663", ExactEvmScheme(EthAccountSignerWithRPC(account, rpc)))
    client.set_spend_controls(False)
    client.register_extension(PaymentIdentifierClientExtension(args.payment_id))
    if args.no_pay:
        client.on_before_payment_creation(lambda _ctx: AbortResult(reason="no-pay"))

    http = x402HTTPClient(client)
    if args.siwx:
        reference_hook = create_siwx_client_hook(account)

        async def siwx_hook(ctx: Any) -> Any:
            result = await reference_hook(ctx)
            if result is None:
                # The reference hook swallows its errors; say why it sent nothing.
                ext = (ctx.payment_required.extensions or {}).get("sign-in-with-x")
                if not ext:
                    out["siwxHookNote"] = "the 402 declares no sign-in-with-x"
                else:
                    try:
                        assert_siwx_challenge_bound_to_origin(ext.get("info") or {}, ctx.request_url)
                        out["siwxHookNote"] = "the reference hook sent no proof"
                    except Exception as e:  # noqa: BLE001
                        out["siwxHookNote"] = str(e)
            return result

        http.on_payment_required(siwx_hook)

    recorder = RecordingTransport()
    async with httpx.AsyncClient(
        transport=x402AsyncTransport(http, transport=recorder), timeout=60.0
    ) as c:
        try:
            if args.mode == "post":
                response = await c.post(
                    args.url,
                    content=(args.json or "").encode(),
                    headers={"content-type": "application/json"},
                )
            else:
                response = await c.get(args.url)
            out["ok"] = True
            out.update(describe(response))
        except Exception as e:  # noqa: BLE001
            out["ok"] = False
            out["error"] = f"{type(e).__name__}: {e}"
            cause = e.__cause__
            if cause is not None:
                out["cause"] = f"{type(cause).__name__}: {cause}"
            out["trace"] = traceback.format_exc(limit=4)
    out["exchanges"] = recorder.exchanges
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    for mode, what in (("get", "one GET"), ("post", "one POST of --json")):
        g = sub.add_parser(mode, help=f"{what} through the paying client")
        g.add_argument("url")
        g.add_argument("--key", help="private key hex (default $X402_PRIVATE_KEY)")
        g.add_argument("--rpc", help="JSON-RPC URL of the chain (default $X402_RPC_URL)")
        g.add_argument("--siwx", action="store_true", help="register the reference SIWX hook")
        g.add_argument("--payment-id", help="pin the payment-identifier id (16-128 [A-Za-z0-9_-])")
        g.add_argument("--no-pay", action="store_true", help="abort before creating any payment")
        if mode == "post":
            g.add_argument("--json", required=True, help="the JSON request body")
    args = p.parse_args()
    result = asyncio.run(get(args))
    json.dump(result, sys.stdout, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
