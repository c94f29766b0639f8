// Drives the public site in a real browser (Debian's chromium, headless, through the DevTools
// protocol with playwright-core) with a test wallet injected into the page: an EIP-1193
// provider whose every request is answered here by a devnet key through viem (real signatures,
// real transactions on anvil).
//
//   JM_BROWSER='{"scenario": "...", "root": "http://127.0.0.1:PORT", "rpc": "...", "key": "0x…", …}' \
//     node tests/browser/site.mjs
//
// Scenarios: buy (slug), signin (slug), publish (draft), vote (slug), swarm, axe (paths), token.
// Screenshots go to `shots` (a folder under target/). Prints ONE JSON object on stdout: what
// happened and what the wallet was asked; the Rust tests judge it, and the chain.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const require = createRequire(import.meta.url);
const args = JSON.parse(process.env.JM_BROWSER || "{}");
const TIMEOUT = 90_000;

function chainOf(a) {
  return {
    id: a.chainId,
    name: "devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [a.rpc] } },
  };
}

// EIP-712 values as viem wants them: integers as BigInt.
function typedValues(types, primary, value) {
  const out = {};
  for (const f of types[primary]) {
    const v = value[f.name];
    if (types[f.type]) out[f.name] = typedValues(types, f.type, v);
    else if (/^u?int\d*$/.test(f.type)) out[f.name] = BigInt(v);
    else out[f.name] = v;
  }
  return out;
}

async function withWallet(context, page, key) {
  const calls = [];
  if (!key) return calls;
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain: chainOf(args), transport: http(args.rpc) });
  const statusText = () =>
    page.evaluate(() => Array.from(document.querySelectorAll(".status")).map((s) => s.textContent).join(" | "));
  async function handle(method, params) {
    // A wallet that refuses (as a person pressing "Reject" would), or sits on another chain.
    if (args.reject === method) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    if (args.walletChain && method === "eth_chainId") return "0x" + args.walletChain.toString(16);
    if (args.walletChain && method === "wallet_switchEthereumChain") {
      throw Object.assign(new Error("Unrecognized chain ID."), { code: 4902 });
    }
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "eth_chainId":
        return "0x" + args.chainId.toString(16);
      case "wallet_switchEthereumChain":
        return null;
      case "personal_sign":
        return account.signMessage({ message: { raw: params[0] } });
      case "eth_signTypedData_v4": {
        const t = JSON.parse(params[1]);
        const { EIP712Domain, ...types } = t.types;
        return account.signTypedData({
          domain: { ...t.domain, chainId: BigInt(t.domain.chainId) },
          types,
          primaryType: t.primaryType,
          message: typedValues(types, t.primaryType, t.message),
        });
      }
      case "eth_sendTransaction": {
        const tx = params[0];
        return wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : undefined });
      }
      default:
        throw Object.assign(new Error("the test wallet does not do " + method), { code: 4200 });
    }
  }
  await page.exposeFunction("__jmWallet", async (method, params) => {
    // What the page showed when the wallet was asked: the tests check that each signature was
    // explained first.
    calls.push({ method, shown: await statusText() });
    try {
      return { result: await handle(method, params) };
    } catch (e) {
      return { error: { code: e.code ?? -32603, message: e.shortMessage || e.message } };
    }
  });
  await context.addInitScript(() => {
    window.ethereum = {
      request: async ({ method, params }) => {
        const r = await window.__jmWallet(method, params || []);
        if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
        return r.result;
      },
    };
  });
  return calls;
}

async function shot(page, name) {
  if (!args.shots) return null;
  fs.mkdirSync(args.shots, { recursive: true });
  const file = path.join(args.shots, name + ".png");
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

const statusOf = (page, id) => page.locator("#" + id).textContent();

// Waits for a status line to say it is done, or to say what went wrong.
async function settle(page, id, done) {
  await page.waitForFunction(
    ([id, done]) => {
      const s = document.getElementById(id);
      return s && (s.classList.contains("error") || (done && document.querySelector(done)));
    },
    [id, done],
    { timeout: TIMEOUT },
  );
  const s = page.locator("#" + id);
  return { text: await s.textContent(), error: await s.evaluate((e) => e.classList.contains("error")) };
}

async function buy(page, calls) {
  await page.goto(`${args.root}/journal/${args.slug}`);
  const locked = await shot(page, args.name ? args.name + "-locked" : "journal-locked");
  await page.click("#buy-button");
  const out = await settle(page, "buy-status", "#text article.text");
  const text = await page.locator("#text").textContent();
  const unlocked = await shot(page, args.name ? args.name + "-unlocked" : "journal-unlocked");
  return { ...out, textChars: text.length, shots: [locked, unlocked] };
}

async function signin(page) {
  await page.goto(`${args.root}/journal/${args.slug}`);
  await page.click("#signin-button");
  await page.waitForSelector("text=You own this journal.", { timeout: TIMEOUT });
  const text = await page.locator("article.text").textContent();
  return { text: await statusOf(page, "buy").catch(() => ""), error: false, textChars: text.length };
}

async function publish(page) {
  const d = args.draft;
  await page.goto(`${args.root}/desk`);
  await page.click("#signin-button");
  await page.waitForSelector("#editor form", { timeout: TIMEOUT });
  await page.fill("#ticker", d.ticker);
  await page.fill("#title", d.title);
  await page.fill("#dek", "Too short.");
  await page.fill("#body", d.body);
  await page.fill("#price", String(d.priceUsdg));
  await page.fill("#author", d.authorName);
  await page.click("#save");
  await page.waitForSelector("#problems li", { timeout: TIMEOUT });
  const problems = await page.locator("#problems li").allTextContents();
  const saved = () =>
    page.waitForFunction(() => /^Draft \d+ saved/.test(document.getElementById("desk-status").textContent), null, { timeout: TIMEOUT });
  await page.fill("#dek", d.dek);
  await page.click("#save");
  await saved();
  // Back at the desk later: the draft is in the table, and "Edit" loads it into the editor.
  await page.reload();
  await page.waitForSelector("button[data-edit]:not([disabled])", { timeout: TIMEOUT });
  await page.click("button[data-edit]");
  await page.waitForFunction(() => /Editing draft/.test(document.getElementById("desk-status").textContent), null, { timeout: TIMEOUT });
  const loaded = await page.inputValue("#title");
  await page.fill("#title", d.title + " (edited)");
  await page.click("#save");
  await saved();
  await page.click("#audit");
  await page.waitForSelector("#report h3", { timeout: TIMEOUT });
  const verdict = await page.locator("#report h3").textContent();
  const desk = await shot(page, "desk");
  await page.click("#register");
  const out = await settle(page, "desk-status", "#live-link");
  const href = out.error ? null : await page.locator("#live-link").getAttribute("href");
  return { ...out, problems, loaded, verdict, href, shots: [desk] };
}

async function vote(page) {
  await page.goto(`${args.root}/journal/${args.slug}`);
  await page.click(args.value > 0 ? "#vote-up" : "#vote-down");
  await page.waitForFunction(
    () => {
      const s = document.getElementById("vote-status");
      return s.classList.contains("error") || s.classList.contains("ok");
    },
    null,
    { timeout: TIMEOUT },
  );
  return { text: await statusOf(page, "vote-status"), error: await page.locator("#vote-status").evaluate((e) => e.classList.contains("error")) };
}

async function swarm(page) {
  await page.goto(`${args.root}/swarm`);
  const lines = await page.locator("#log li").count();
  await page.click("#replay");
  await page.waitForFunction(() => !document.getElementById("log").classList.contains("replaying"), null, { timeout: TIMEOUT });
  const shown = await page.locator("#log li:not(.hidden)").count();
  return { lines, shown, shots: [await shot(page, "swarm")] };
}

async function axe(page) {
  const source = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const pages = [];
  for (const p of args.paths) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(args.root + p);
      await page.evaluate(source);
      const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      pages.push({
        path: p,
        width,
        overflow,
        violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help })),
      });
    }
  }
  return { pages };
}

// The token page's chart at a desktop's width and a phone's, its table opened: what it showed,
// and axe's findings with the table read too.
async function token(page) {
  const source = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const pages = [];
  const shots = [];
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${args.root}/token`);
    const chart = page.locator('svg.chart[role="img"]');
    await chart.waitFor({ timeout: TIMEOUT });
    const box = await chart.boundingBox();
    await page.click("details summary");
    await page.evaluate(source);
    const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    pages.push({
      path: "/token",
      width,
      overflow,
      chartWidth: box ? box.width : 0,
      violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help })),
    });
    shots.push(await shot(page, `token-${width}`));
  }
  const shown = await page.evaluate(() => {
    const svg = document.querySelector("svg.chart");
    const price = [...document.querySelectorAll("dl.facts dt")].find((d) => d.textContent === "Price");
    return {
      label: svg.getAttribute("aria-label"),
      bars: svg.querySelectorAll("rect.bar").length,
      points: svg.querySelectorAll("circle.price").length,
      line: svg.querySelectorAll("polyline.price").length,
      rows: document.querySelectorAll("details table tbody tr").length,
      price: price ? price.nextElementSibling.textContent : null,
    };
  });
  const tableVisible = await page.locator("details table").isVisible();
  return { pages, ...shown, tableVisible, shots };
}

const browser = await chromium.launch({
  executablePath: args.chromium || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
let result;
let page;
const requests = new Set();
const pageErrors = [];
try {
  const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
  page = await context.newPage();
  page.on("request", (r) => requests.add(new URL(r.url()).origin));
  page.on("pageerror", (e) => pageErrors.push(e.message));
  // What the Content-Security-Policy blocked (a script, a style, a frame) is a page error too.
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) pageErrors.push(m.text());
  });
  const calls = await withWallet(context, page, args.key);
  const run = { buy, signin, publish, vote, swarm, axe, token }[args.scenario];
  if (!run) throw new Error("no scenario " + args.scenario);
  result = { ok: true, ...(await run(page, calls)), calls, pageErrors };
} catch (e) {
  // What the page showed when it went wrong, for the failure's message.
  const shown = page ? await page.locator("main").innerText().catch(() => "") : "";
  result = { ok: false, failure: String(e && e.stack ? e.stack : e), pageErrors, shown: shown.slice(0, 4000) };
} finally {
  await browser.close();
}
result.origins = Array.from(requests);
console.log(JSON.stringify(result));
