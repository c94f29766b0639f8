"""Discovery documents checked with the reference Python x402 (2.25.0) bazaar validators.

    python validate_discovery.py payment-required VALUE
    python validate_discovery.py payment-required --url URL
    python validate_discovery.py well-known VALUE [--probe N]
    python validate_discovery.py well-known --url URL [--probe N]

VALUE is a JSON string, a file path, a base64 PAYMENT-REQUIRED header value, or "-" (stdin).
--url GETs it unpaid (the PAYMENT-REQUIRED header of the 402 for payment-required; the body for
well-known).

payment-required: a v2 PaymentRequired (or its `extensions`, or `extensions.bazaar` alone). It
must parse as the reference PaymentRequired model, and its `bazaar` extension must pass what a
facilitator runs on the echo (research/x402-extensions.md §4.3): validate_discovery_extension (info
against its schema) on the raw dict and on the parsed model, validate_discovery_extension_spec,
the routeTemplate check when there is one, and extract_discovery_info must catalog it (a
method, a resource URL).

well-known: `/.well-known/x402`. No reference schema exists (§4.4): the x402scan shape
`{version: 1, resources: [absolute http(s) URLs], ownershipProofs?: [str], instructions?: str}`;
if a foundation-draft `items[]` is present, each item's `accepts` entries must parse as the
reference PaymentRequirements model. --probe N GETs the first N resources unpaid and runs the
payment-required checks on each 402.

Prints ONE JSON object on stdout: {valid, errors, ...details}. Exit code 0 whenever it printed.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from typing import Any
from urllib.parse import urlparse

import httpx
from x402.extensions.bazaar.facilitator import (
    _is_valid_route_template,
    extract_discovery_info,
    validate_discovery_extension,
    validate_discovery_extension_spec,
)
from x402.extensions.bazaar.types import parse_discovery_extension
from x402.schemas import PaymentRequired, PaymentRequirements


def load(value: str) -> Any:
    if value == "-":
        value = sys.stdin.read()
    value = value.strip()
    if value.startswith("{") or value.startswith("["):
        return json.loads(value)
    if os.path.isfile(value):
        with open(value, encoding="utf-8") as f:
            return json.load(f)
    padded = value + "=" * (-len(value) % 4)
    try:
        raw = base64.b64decode(padded, validate=True)
    except Exception:  # noqa: BLE001
        raw = base64.urlsafe_b64decode(padded)
    return json.loads(raw)


def fetch_payment_required(url: str) -> tuple[Any, dict[str, Any]]:
    r = httpx.get(url, headers={"accept": "application/json"}, timeout=30.0)
    seen = {"status": r.status_code, "hasHeader": "payment-required" in r.headers}
    if r.status_code != 402 or "payment-required" not in r.headers:
        return None, seen
    return load(r.headers["payment-required"]), seen


def check_bazaar(bazaar: Any, pr: dict[str, Any] | None) -> tuple[list[str], dict[str, Any]]:
    errors: list[str] = []
    details: dict[str, Any] = {}
    if not isinstance(bazaar, dict):
        return ["extensions.bazaar is missing or not an object"], details

    r = validate_discovery_extension(bazaar)
    details["validate_discovery_extension"] = {"valid": r.valid, "errors": r.errors}
    errors += [f"validate_discovery_extension: {e}" for e in r.errors]
    try:
        parsed = parse_discovery_extension(bazaar)
        r = validate_discovery_extension(parsed)
        details["validate_discovery_extension(parsed)"] = {"valid": r.valid, "errors": r.errors}
        errors += [f"validate_discovery_extension(parsed): {e}" for e in r.errors]
    except Exception as e:  # noqa: BLE001
        errors.append(f"parse_discovery_extension: {e}")

    r = validate_discovery_extension_spec(bazaar)
    details["validate_discovery_extension_spec"] = {"valid": r.valid, "errors": r.errors}
    errors += [f"validate_discovery_extension_spec: {e}" for e in r.errors]

    template = bazaar.get("routeTemplate")
    details["routeTemplate"] = template
    if template is not None and not _is_valid_route_template(template):
        errors.append(f"routeTemplate {template!r} fails the reference check")

    if pr is not None:
        # What a facilitator catalogs from the client's echo of this 402.
        accepts = pr.get("accepts") or [{}]
        payload = {
            "x402Version": pr.get("x402Version", 2),
            "resource": pr.get("resource") or {},
            "accepted": accepts[0],
            "payload": {},
            "extensions": pr.get("extensions") or {},
        }
        found = extract_discovery_info(payload, accepts[0])
        if found is None:
            errors.append("extract_discovery_info catalogs nothing")
        else:
            details["catalogued"] = {
                "resourceUrl": found.resource_url,
                "method": found.method,
                "routeTemplate": found.route_template,
                "description": found.description,
                "mimeType": found.mime_type,
                "serviceName": found.service_name,
                "tags": found.tags,
                "iconUrl": found.icon_url,
            }
    return errors, details


def check_payment_required(doc: Any) -> dict[str, Any]:
    errors: list[str] = []
    out: dict[str, Any] = {}
    pr: dict[str, Any] | None = None
    if isinstance(doc, dict) and "x402Version" in doc:
        pr = doc
        try:
            PaymentRequired.model_validate(doc)
        except Exception as e:  # noqa: BLE001
            errors.append(f"not a reference PaymentRequired: {e}")
        if doc.get("x402Version") != 2:
            errors.append(f"x402Version is {doc.get('x402Version')!r}, not 2")
        if not doc.get("accepts"):
            errors.append("accepts is empty (x402scan skips such a route)")
        bazaar = (doc.get("extensions") or {}).get("bazaar")
    elif isinstance(doc, dict) and "bazaar" in doc:
        bazaar = doc["bazaar"]
    else:
        bazaar = doc
    e, details = check_bazaar(bazaar, pr)
    errors += e
    out.update(details)
    out["valid"] = not errors
    out["errors"] = errors
    return out


def is_url(u: Any) -> bool:
    if not isinstance(u, str):
        return False
    p = urlparse(u)
    return p.scheme in ("http", "https") and bool(p.netloc)


def check_well_known(doc: Any, probe: int) -> dict[str, Any]:
    errors: list[str] = []
    out: dict[str, Any] = {}
    if not isinstance(doc, dict):
        return {"valid": False, "errors": ["not a JSON object"]}
    if doc.get("version") != 1:
        errors.append(f"version is {doc.get('version')!r}, not 1")
    resources = doc.get("resources")
    if not isinstance(resources, list) or not resources:
        errors.append("resources is not a non-empty list")
        resources = []
    bad = [u for u in resources if not is_url(u)]
    if bad:
        errors.append(f"resources that are not absolute http(s) URLs: {bad[:5]}")
    if len(set(map(str, resources))) != len(resources):
        errors.append("resources repeat")
    proofs = doc.get("ownershipProofs")
    if proofs is not None and not (
        isinstance(proofs, list) and all(isinstance(p, str) for p in proofs)
    ):
        errors.append("ownershipProofs is not a list of strings")
    if "instructions" in doc and not isinstance(doc["instructions"], str):
        errors.append("instructions is not a string")
    out["resources"] = len(resources)

    items = doc.get("items")
    if items is not None:
        if not isinstance(items, list):
            errors.append("items is not a list")
            items = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                errors.append(f"items[{i}] is not an object")
                continue
            if not is_url((item.get("resource") or {}).get("url")):
                errors.append(f"items[{i}].resource.url is not an absolute http(s) URL")
            accepts = item.get("accepts")
            if not isinstance(accepts, list) or not accepts:
                errors.append(f"items[{i}].accepts is not a non-empty list")
                continue
            for j, a in enumerate(accepts):
                try:
                    PaymentRequirements.model_validate(a)
                except Exception as e:  # noqa: BLE001
                    errors.append(f"items[{i}].accepts[{j}] is not a PaymentRequirements: {e}")
        out["items"] = len(items)

    if probe:
        probed = []
        for url in [u for u in resources if is_url(u)][:probe]:
            pr, seen = fetch_payment_required(url)
            entry: dict[str, Any] = {"url": url, **seen}
            if pr is None:
                errors.append(f"{url} answered {seen['status']} without a PAYMENT-REQUIRED 402")
            else:
                r = check_payment_required(pr)
                entry.update({"valid": r["valid"], "errors": r["errors"]})
                errors += [f"{url}: {e}" for e in r["errors"]]
            probed.append(entry)
        out["probed"] = probed
    out["valid"] = not errors
    out["errors"] = errors
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kind", choices=["payment-required", "well-known"])
    p.add_argument("value", nargs="?", help="JSON, file, base64 header value or - (stdin)")
    p.add_argument("--url", help="GET this URL unpaid instead of reading VALUE")
    p.add_argument("--probe", type=int, default=0, help="well-known: GET the first N resources")
    args = p.parse_args()
    out: dict[str, Any]
    try:
        if args.kind == "payment-required":
            if args.url:
                doc, seen = fetch_payment_required(args.url)
                if doc is None:
                    out = {"valid": False, "errors": [f"no PAYMENT-REQUIRED 402: {seen}"]}
                else:
                    out = check_payment_required(doc)
            else:
                out = check_payment_required(load(args.value))
        else:
            if args.url:
                r = httpx.get(args.url, headers={"accept": "application/json"}, timeout=30.0)
                doc = r.json() if r.status_code == 200 else None
                if doc is None:
                    out = {"valid": False, "errors": [f"{args.url} answered {r.status_code}"]}
                else:
                    out = check_well_known(doc, args.probe)
                    out["contentType"] = r.headers.get("content-type")
            else:
                out = check_well_known(load(args.value), args.probe)
    except Exception as e:  # noqa: BLE001
        out = {"valid": False, "errors": [f"{type(e).__name__}: {e}"]}
    json.dump(out, sys.stdout, default=str)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
