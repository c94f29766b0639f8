// Journal Market's wallet actions: buy a journal (x402 v2, Permit2 witness transfers), sign in,
// vote. Talks to any EIP-1193 wallet (window.ethereum) and to this site's API; no other
// request leaves the page. Every failure is said in a sentence on the page.
"use strict";
(() => {
  const API = document.body.dataset.api || "/api";
  // Canonical Permit2 (protocols.md): the EIP-712 domain's verifying contract.
  const PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
  const MAX = (1n << 256n) - 1n;
  const $ = (id) => document.getElementById(id);

  function say(el, text, kind) {
    if (!el) return;
    el.textContent = text;
    el.className = "status" + (kind ? " " + kind : "");
  }

  // --- ABI encoding: just the argument kinds our calls use. ---
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const word = (n) => (BigInt.asUintN(256, BigInt(n))).toString(16).padStart(64, "0");
  const addr = (a) => a.toLowerCase().replace(/^0x/, "").padStart(64, "0");
  function str(s) {
    const b = new TextEncoder().encode(s);
    const padded = hex(b).padEnd(Math.ceil(b.length / 32) * 64, "0");
    return word(b.length) + padded;
  }
  // args: [kind, value] with kind "uint" | "int" | "address" | "bytes32" | "string".
  function encode(selector, args) {
    let head = "";
    let tail = "";
    const headSize = args.length * 32;
    for (const [kind, v] of args) {
      if (kind === "string") {
        head += word(headSize + tail.length / 2);
        tail += str(v);
      } else if (kind === "address") {
        head += addr(v);
      } else if (kind === "bytes32") {
        head += v.replace(/^0x/, "").padStart(64, "0");
      } else {
        head += word(v);
      }
    }
    return selector + head + tail;
  }

  // A JSON POST to the API with the session cookie.
  const postJson = (path, payload, headers = {}) =>
    fetch(API + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(payload),
    });

  async function rpc(method, params) {
    const r = await postJson("/rpc", { jsonrpc: "2.0", id: 1, method, params });
    const j = await r.json();
    if (j.error) throw new Error("the chain answered: " + j.error.message);
    return j.result;
  }

  let configPromise;
  const config = () =>
    (configPromise ||= fetch(API + "/config").then((r) => {
      if (!r.ok) throw new Error("the service's settings could not be read");
      return r.json();
    }));

  function wallet() {
    if (!window.ethereum || typeof window.ethereum.request !== "function") {
      throw new Error("No browser wallet found: install or unlock one (any EIP-1193 wallet), then try again.");
    }
    return window.ethereum;
  }

  function walletError(e) {
    if (e && (e.code === 4001 || /reject|denied/i.test(e.message || ""))) {
      return "You declined in your wallet, so nothing more was paid; press the button again to go on.";
    }
    return (e && e.message) || String(e);
  }

  async function connect() {
    const w = wallet();
    const [account] = await w.request({ method: "eth_requestAccounts" });
    if (!account) throw new Error("The wallet shared no account.");
    const cfg = await config();
    const chain = parseInt(await w.request({ method: "eth_chainId" }), 16);
    if (chain !== cfg.chainId) {
      try {
        await w.request({
          method: "wallet_switchEthereumChain",
          params: [{ chainId: "0x" + cfg.chainId.toString(16) }],
        });
      } catch (_) {
        throw new Error(`Your wallet is on chain ${chain}; switch it to chain ${cfg.chainId} and try again.`);
      }
    }
    return { w, account, cfg };
  }

  async function waitForReceipt(tx, status) {
    for (let i = 0; i < 120; i++) {
      const r = await rpc("eth_getTransactionReceipt", [tx]);
      if (r) {
        if (r.status !== "0x1") throw new Error("The transaction " + tx + " failed onchain.");
        return r;
      }
      if (i === 3) say(status, "Waiting for the transaction to be mined…");
      await new Promise((res) => setTimeout(res, 1000));
    }
    throw new Error("The transaction " + tx + " was not mined within two minutes; check your wallet.");
  }

  const units = (u) => {
    const s = BigInt(u).toString().padStart(7, "0");
    const whole = s.slice(0, -6).replace(/^0+(?=\d)/, "");
    const frac = s.slice(-6).replace(/0+$/, "");
    return frac ? `${whole}.${frac}` : whole;
  };
  const short = (a) => a.slice(0, 6) + "…" + a.slice(-4);

  async function sendTx(w, from, to, data) {
    return w.request({ method: "eth_sendTransaction", params: [{ from, to, data }] });
  }

  // The one-time approval of USDG to Permit2, when the allowance does not cover `amount`.
  async function ensureAllowance(w, account, cfg, amount, status) {
    const data = "0x" + encode("dd62ed3e", [["address", account], ["address", PERMIT2]]);
    const allowance = BigInt(await rpc("eth_call", [{ to: cfg.usdg, data }, "latest"]));
    if (allowance >= amount) return;
    say(status, "First, one transaction: allow Permit2 to move your USDG (confirm it in your wallet).");
    const tx = await sendTx(w, account, cfg.usdg, "0x" + encode("095ea7b3", [["address", PERMIT2], ["uint", MAX]]));
    await waitForReceipt(tx, status);
  }

  async function checkBalance(account, cfg, amount) {
    const data = "0x" + encode("70a08231", [["address", account]]);
    const balance = BigInt(await rpc("eth_call", [{ to: cfg.usdg, data }, "latest"]));
    if (balance < amount) {
      throw new Error(`Your wallet holds ${units(balance)} USDG; this payment needs ${units(amount)} USDG.`);
    }
  }

  function randomNonce() {
    const b = crypto.getRandomValues(new Uint8Array(32));
    return BigInt("0x" + hex(b)).toString();
  }

  const b64 = (obj) => btoa(JSON.stringify(obj));

  async function payStep(ctx, step, index, total, panel, status) {
    const { w, account, cfg } = ctx;
    const post = (headers) => postJson("/pay/" + step, { journalId: Number(panel.dataset.journalId) }, headers);
    let r = await post({});
    if (r.status === 200) return r.json(); // already paid (the fee of an earlier try)
    if (r.status !== 402) throw new Error((await r.json()).error || `the service answered ${r.status}`);
    const challenge = await r.json();
    const offer = (challenge.accepts || []).find((a) => a.scheme === "exact");
    if (!offer) throw new Error("The service offered no payment this page can make.");
    const amount = BigInt(offer.amount);
    if (offer.asset.toLowerCase() !== cfg.usdg.toLowerCase()) throw new Error("The offer is not in USDG; nothing was signed.");
    if (amount > BigInt(panel.dataset.priceUnits)) throw new Error("The offer asks more than the journal's price; nothing was signed.");
    await checkBalance(account, cfg, amount);
    await ensureAllowance(w, account, cfg, amount, status);
    const what =
      step === "author"
        ? "the author's 90%, " + units(amount) + " USDG, to the journal's owner"
        : (total === 1 ? "the price, " : "the 10% fee, ") + units(amount) + " USDG, to the service";
    say(status, `Signature ${index} of ${total}: ${what} (${short(offer.payTo)}). Confirm in your wallet.`);
    const deadline = Math.floor(Date.now() / 1000) + 280;
    const message = {
      permitted: { token: offer.asset, amount: offer.amount },
      spender: offer.extra.spender,
      nonce: randomNonce(),
      deadline: String(deadline),
      witness: { to: offer.payTo, validAfter: "0" },
    };
    const typed = {
      domain: { name: "Permit2", chainId: cfg.chainId, verifyingContract: PERMIT2 },
      primaryType: "PermitWitnessTransferFrom",
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        PermitWitnessTransferFrom: [
          { name: "permitted", type: "TokenPermissions" },
          { name: "spender", type: "address" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
          { name: "witness", type: "Witness" },
        ],
        TokenPermissions: [
          { name: "token", type: "address" },
          { name: "amount", type: "uint256" },
        ],
        Witness: [
          { name: "to", type: "address" },
          { name: "validAfter", type: "uint256" },
        ],
      },
      message,
    };
    const signature = await w.request({
      method: "eth_signTypedData_v4",
      params: [account, JSON.stringify(typed)],
    });
    const payload = {
      x402Version: 2,
      accepted: offer,
      resource: challenge.resource,
      payload: { signature, permit2Authorization: { ...message, from: account } },
    };
    say(status, `Signature ${index} of ${total} sent; the payment is settling…`);
    for (let i = 0; i < 30; i++) {
      r = await post({ "payment-signature": b64(payload) });
      if (r.status !== 409 || !r.headers.get("retry-after")) break;
      await new Promise((res) => setTimeout(res, 2000)); // still settling: the same request later
    }
    const answer = await r.json();
    if (!r.ok) throw new Error(answer.error || `the payment was refused (${r.status})`);
    return answer;
  }

  function showText(html) {
    const panel = $("buy");
    const text = $("text");
    text.innerHTML = "";
    const article = document.createElement("article");
    article.className = "text";
    article.setAttribute("aria-label", "Journal text");
    article.innerHTML = html; // the service's renderer escapes the text; only its tags remain
    text.appendChild(article);
    panel.querySelector(".actions").hidden = true;
    say($("buy-status"), "Bought: the text is below, and this wallet is signed in to read it again.", "ok");
  }

  async function buy() {
    const panel = $("buy");
    const status = $("buy-status");
    const buttons = panel.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      const ctx = await connect();
      const total = Number(panel.dataset.signatures);
      const steps = total === 1 ? ["burn"] : ["burn", "author"];
      let last;
      for (let i = 0; i < steps.length; i++) {
        last = await payStep(ctx, steps[i], i + 1, total, panel, status);
      }
      if (!last || !last.html) throw new Error("The payment settled but no text came back; sign in to read it.");
      showText(last.html);
    } catch (e) {
      say(status, walletError(e), "error");
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  async function signIn(status, after) {
    try {
      const { w, account } = await connect();
      say(status, "Sign the sign-in message in your wallet (it costs nothing).");
      const r = await postJson("/auth/nonce", { address: account });
      const n = await r.json();
      if (!r.ok) throw new Error(n.error);
      const msgHex = "0x" + hex(new TextEncoder().encode(n.message));
      const signature = await w.request({ method: "personal_sign", params: [msgHex, account] });
      const v = await postJson("/auth/verify", { address: account, nonce: n.nonce, signature });
      const answer = await v.json();
      if (!v.ok) throw new Error(answer.error);
      say(status, "Signed in.", "ok");
      after();
    } catch (e) {
      say(status, walletError(e), "error");
    }
  }

  async function vote(value) {
    const box = $("vote");
    const status = $("vote-status");
    box.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      const { w, account, cfg } = await connect();
      const page = document.querySelector('link[rel="canonical"]').href;
      say(status, `Send your vote (${value > 0 ? "up" : "down"}) from your wallet: one transaction.`);
      const data = "0x" + encode("3c036a7e", [
        ["uint", box.dataset.tokenId], ["int", value], ["uint", 0], ["string", ""], ["string", ""],
        ["string", page], ["string", ""], ["bytes32", "0x0"],
      ]);
      const tx = await sendTx(w, account, cfg.reputationRegistry, data);
      await waitForReceipt(tx, status);
      for (let i = 0; i < 30; i++) {
        const r = await postJson("/votes/record", { tx });
        const answer = await r.json();
        if (r.status === 409 && r.headers.get("retry-after")) {
          await new Promise((res) => setTimeout(res, 2000));
          continue;
        }
        if (!r.ok) throw new Error(answer.error);
        say(status, "Your vote is recorded.", "ok");
        return;
      }
      throw new Error("The vote was sent but not recorded yet; reload the page in a minute.");
    } catch (e) {
      say(status, walletError(e), "error");
      box.querySelectorAll("button").forEach((b) => (b.disabled = false));
    }
  }

  // Exposed for the desk's script.
  window.JournalMarket = { connect, sendTx, encode, waitForReceipt, walletError, say, signIn, postJson };

  function start() {
    const panel = $("buy");
    if (panel && panel.dataset.slug) {
      const buyButton = $("buy-button");
      buyButton.disabled = false;
      buyButton.addEventListener("click", buy);
      const si = $("signin-button");
      si.disabled = false;
      si.addEventListener("click", () => signIn($("buy-status"), () => location.reload()));
    }
    const signin = $("signin");
    if (signin) {
      const b = $("signin-button");
      b.disabled = false;
      b.addEventListener("click", () => signIn($("signin-status"), () => location.reload()));
    }
    const box = $("vote");
    if (box) {
      $("vote-up").disabled = false;
      $("vote-down").disabled = false;
      $("vote-up").addEventListener("click", () => vote(1));
      $("vote-down").addEventListener("click", () => vote(-1));
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
