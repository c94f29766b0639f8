// Verifies an offer-receipt receipt with the reference `@x402/extensions/offer-receipt` (2.27.0).
//
//   node tests/x402/verify_receipt.mjs VALUE
//   node tests/x402/verify_receipt.mjs -        (VALUE on stdin)
//
// VALUE is any of: a PAYMENT-RESPONSE header value (base64 of the SettleResponse), the
// SettleResponse JSON, or the signed receipt JSON itself. The receipt is taken from
// `extensions["offer-receipt"].info.receipt` of a SettleResponse (research/x402-extensions.md §5).
//
// Prints ONE JSON object on stdout: { ok, format, signer, payload } for an EIP-712 receipt
// (signer recovered by verifyReceiptSignatureEIP712), { ok, format, payload } for a JWS one
// (verifyReceiptSignatureJWS, key from its kid), or { ok: false, error }. Whether the signer is
// the authorised one is for the caller (spec §4.5.1): the Rust test compares it.

import { decodePaymentResponseHeader } from "@x402/core/http";
import {
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";

async function readValue() {
  const arg = process.argv[2];
  if (arg === undefined) throw new Error("usage: verify_receipt.mjs VALUE|-");
  if (arg !== "-") return arg.trim();
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8").trim();
}

function receiptOf(value) {
  let doc;
  if (value.startsWith("{")) {
    doc = JSON.parse(value);
  } else {
    doc = decodePaymentResponseHeader(value);
  }
  if (doc?.extensions) {
    const r = doc.extensions["offer-receipt"]?.info?.receipt;
    if (!r) throw new Error('the SettleResponse has no extensions["offer-receipt"].info.receipt');
    return { receipt: r, settle: doc };
  }
  if (doc?.format && doc?.signature) return { receipt: doc, settle: null };
  throw new Error("neither a SettleResponse with a receipt nor a signed receipt");
}

async function main() {
  const out = {};
  try {
    const { receipt, settle } = receiptOf(await readValue());
    out.format = receipt.format;
    out.receipt = receipt;
    if (settle) out.settle = { success: settle.success, transaction: settle.transaction, payer: settle.payer, network: settle.network };
    if (receipt.format === "eip712") {
      const { signer, payload } = await verifyReceiptSignatureEIP712(receipt);
      Object.assign(out, { ok: true, signer, payload });
    } else {
      const payload = await verifyReceiptSignatureJWS(receipt);
      Object.assign(out, { ok: true, payload });
    }
  } catch (e) {
    out.ok = false;
    out.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  process.stdout.write(`${JSON.stringify(out, (_, v) => (typeof v === "bigint" ? v.toString() : v))}\n`);
}

main();
