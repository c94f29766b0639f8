// One request through the reference `@x402/fetch` client (2.27.0), unchanged.
//
//   node tests/x402/fetch_client.mjs URL [--key HEX] [--rpc URL] [--siwx] [--payment-id ID]
//                                        [--no-pay] [--method POST --json BODY]
//
// --key / --rpc default to $X402_PRIVATE_KEY / $X402_RPC_URL. The client is the documented one
// (research/x402-extensions.md §6): x402Client().register("eip155:4663",
// new ExactEvmScheme(account, { rpcUrl })).setSpendControls(false),
// wrapFetchWithPayment(fetch, client); --siwx registers
// createSIWxClientExtension({ signers: [account] }); --payment-id pins a payment-identifier id
// (the reference ships no client extension for it: this is the minimal one); --no-pay aborts in
// a before-payment hook, so nothing is signed for a payment.
//
// Prints ONE JSON object on stdout: every HTTP exchange the wrapper made (what it sent, what came
// back, headers decoded) and the final answer (status, body, decoded PAYMENT-RESPONSE with its
// `extensions`). Exit code 0 whenever that object could be printed; the Rust tests judge.

import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxClientExtension } from "@x402/extensions/sign-in-with-x";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";

const BODY_LIMIT = 64 * 1024;

function parseArgs(argv) {
  const a = { method: "GET", flags: new Set() };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (["--siwx", "--no-pay"].includes(v)) a.flags.add(v);
    else if (["--key", "--rpc", "--payment-id", "--method", "--json"].includes(v)) a[v.slice(2)] = argv[++i];
    else if (v.startsWith("--")) throw new Error(`unknown option ${v}`);
    else rest.push(v);
  }
  if (rest.length !== 1) throw new Error("usage: fetch_client.mjs URL [options]");
  a.url = rest[0];
  a.key = a.key ?? process.env.X402_PRIVATE_KEY;
  a.rpc = a.rpc ?? process.env.X402_RPC_URL;
  if (!a.key || !a.rpc) throw new Error("need --key/--rpc or X402_PRIVATE_KEY/X402_RPC_URL");
  return a;
}

function b64json(value) {
  if (!value) return null;
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch (e) {
    return { _undecodable: value.slice(0, 200), _error: String(e) };
  }
}

async function describe(res) {
  const text = (await res.clone().text()).slice(0, BODY_LIMIT);
  let body = text;
  if ((res.headers.get("content-type") ?? "").includes("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON after all: keep the text
    }
  }
  const headers = {};
  for (const k of ["content-type", "cache-control", "retry-after", "set-cookie", "location", "link"]) {
    if (res.headers.has(k)) headers[k] = res.headers.get(k);
  }
  const out = {
    status: res.status,
    headers,
    body,
    // The body as received, for checking a receipt's responseHash.
    rawBody: text,
    paymentRequired: b64json(res.headers.get("payment-required")),
    paymentResponse: b64json(res.headers.get("payment-response")),
  };
  const raw = res.headers.get("payment-response");
  if (raw) {
    out.paymentResponseHeader = raw;
    // What the reference decoder makes of it.
    try {
      decodePaymentResponseHeader(raw);
      out.paymentResponseParses = true;
    } catch (e) {
      out.paymentResponseParses = String(e);
    }
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const account = privateKeyToAccount(args.key.startsWith("0x") ? args.key : `0x${args.key}`);
  const out = { payer: account.address, url: args.url };
  const exchanges = [];

  // The fetch under the wrapper: it sees each request the wrapper sends.
  const recordingFetch = async (input, init) => {
    const req = new Request(input, init);
    const sig = req.headers.get("payment-signature");
    const siwx = req.headers.get("sign-in-with-x");
    const entry = {
      method: req.method,
      url: req.url,
      sent: { "payment-signature": sig !== null, "sign-in-with-x": siwx !== null },
    };
    if (sig) entry.paymentSignature = b64json(sig);
    if (siwx) entry.signInWithX = b64json(siwx);
    exchanges.push(entry);
    const res = await fetch(req);
    Object.assign(entry, await describe(res));
    return res;
  };

  const client = new x402Client()
    .register("eip155:4663", new ExactEvmScheme(account, { rpcUrl: args.rpc }))
    .setSpendControls(false);
  client.registerExtension({
    key: "payment-identifier",
    enrichPaymentPayload: async (payload, paymentRequired) => {
      const ext = { ...(payload.extensions ?? paymentRequired.extensions ?? {}) };
      appendPaymentIdentifierToExtensions(ext, args["payment-id"] ?? generatePaymentId());
      return { ...payload, extensions: ext };
    },
  });
  if (args.flags.has("--siwx")) {
    client.registerExtension(createSIWxClientExtension({ signers: [account] }));
  }
  if (args.flags.has("--no-pay")) {
    client.onBeforePaymentCreation(async () => ({ abort: true, reason: "no-pay" }));
  }
  const fetchWithPayment = wrapFetchWithPayment(recordingFetch, client);

  try {
    const init = { method: args.method };
    if (args.json !== undefined) {
      init.body = args.json;
      init.headers = { "content-type": "application/json" };
    }
    const res = await fetchWithPayment(args.url, init);
    out.ok = true;
    Object.assign(out, await describe(res));
  } catch (e) {
    out.ok = false;
    out.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (e?.cause) out.cause = String(e.cause);
  }
  out.exchanges = exchanges;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: String(e?.stack ?? e) })}\n`);
  process.exitCode = 2;
});
