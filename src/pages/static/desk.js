// The writing desk's editor: save a draft (the service's 422 problems shown by the fields),
// run the audit and show its report, then register the approved journal through the wallet
// (`register(metaUrl)` on the identity registry) and tell the service (`/journal/minted`).
"use strict";
(() => {
  const API = document.body.dataset.api || "/api";
  const root = document.getElementById("editor");
  if (!root) return;
  const JM = window.JournalMarket;
  const el = (tag, attrs = {}, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const field = (form, id, label, input) => {
    form.appendChild(el("label", { for: id }, label));
    input.id = id;
    input.name = id;
    form.appendChild(input);
    return input;
  };

  const form = el("form", { novalidate: "" });
  root.appendChild(el("h2", {}, "Write a journal"));
  root.appendChild(form);
  let draftId = null;
  const ticker = field(form, "ticker", "Company ticker", el("input", { type: "text", autocomplete: "off" }));
  const title = field(form, "title", "Title", el("input", { type: "text" }));
  const dek = field(form, "dek", "Free preview (120 to 340 characters)", el("textarea", { rows: "3" }));
  dek.style.minHeight = "5rem";
  const body = field(form, "body", "Text: sections start with \"## \", citations are [ACCESSION]", el("textarea"));
  const price = field(form, "price", "Price in USDG", el("input", { type: "number", step: "0.01", min: "0" }));
  const author = field(form, "author", "Your name as author", el("input", { type: "text" }));
  const problems = el("ul", { class: "problems", id: "problems" });
  const actions = el("p");
  const save = el("button", { type: "submit", id: "save" }, "Save draft");
  const audit = el("button", { type: "button", id: "audit", class: "secondary", disabled: "" }, "Run the audit");
  const publish = el("button", { type: "button", id: "register", hidden: "" }, "Register onchain and publish");
  actions.append(save, " ", audit, " ", publish);
  const status = el("p", { class: "status", id: "desk-status", role: "status", "aria-live": "polite" });
  const report = el("div", { id: "report" });
  form.append(problems, actions, status, report);
  let metaUrl = null;

  function showReport(status, r) {
    report.textContent = "";
    report.appendChild(el("h3", {}, `Audit: ${status}, score ${Math.round(r.score)}/100`));
    report.appendChild(el("p", {}, r.summary));
    const list = el("ul", { class: "issues" });
    for (const is of r.issues) {
      list.appendChild(el("li", { class: is.severity }, `${is.severity} ${is.check}: ${is.detail}`));
    }
    report.appendChild(list);
    showSupport(r.support || []);
  }

  // Each sentence of record with its judgement and the entry's sentence it rests on (what no
  // cited entry holds, when the engine found such words): the report a reader can check.
  function showSupport(support) {
    if (support.length === 0) return;
    const of = (tag, attrs, ...children) => {
      const e = el(tag, attrs);
      e.append(...children);
      return e;
    };
    report.appendChild(el("h4", {}, "How each sentence rests on the entries"));
    const rows = el("tbody", {});
    for (const s of support) {
      const judged = s.missing && s.missing.length ? `${s.judgement}: not found ${s.missing.join(", ")}` : s.judgement;
      rows.appendChild(of("tr", { class: s.judgement },
        el("td", {}, s.sentence), el("td", {}, judged), el("td", {}, `[${s.entry}] ${s.quote}`)));
    }
    const head = of("thead", {}, of("tr", {},
      el("th", { scope: "col" }, "Sentence"), el("th", { scope: "col" }, "Judgement"),
      el("th", { scope: "col" }, "Rests on")));
    report.appendChild(of("div", { class: "scroll" }, of("table", { class: "support" }, head, rows)));
  }

  // "Edit" on a draft of the table: its fields, its last report, and what may come next.
  for (const b of document.querySelectorAll("button[data-edit]")) {
    b.disabled = false;
    b.addEventListener("click", async () => {
      try {
        const r = await fetch(`${API}/journal/${b.dataset.edit}/draft`, { credentials: "same-origin" });
        const d = await r.json();
        if (!r.ok) throw new Error(d.error);
        draftId = d.id;
        ticker.value = d.ticker;
        title.value = d.title;
        dek.value = d.dek;
        body.value = d.body;
        price.value = d.priceUsdg;
        author.value = d.authorName;
        problems.textContent = "";
        audit.disabled = false;
        report.textContent = "";
        if (d.report) showReport(d.status, d.report);
        metaUrl = d.metaUrl;
        publish.hidden = !(d.status === "approved" && metaUrl);
        JM.say(status, `Editing draft ${d.id} (${d.status}; ${d.auditsLeft} audits left).`);
        ticker.focus();
      } catch (e) {
        JM.say(status, JM.walletError(e), "error");
      }
    });
  }

  async function call(path, payload) {
    const r = await JM.postJson(path, payload);
    return { r, j: await r.json() };
  }

  // Runs `work` with `button` disabled until it ends; an error is said in the status line.
  async function whileDisabled(button, work) {
    button.disabled = true;
    try {
      await work();
    } catch (e) {
      JM.say(status, JM.walletError(e), "error");
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    problems.textContent = "";
    await whileDisabled(save, async () => {
      const draft = {
        ticker: ticker.value.trim(),
        title: title.value.trim(),
        dek: dek.value.trim(),
        body: body.value,
        priceUsdg: Number(price.value),
        authorName: author.value.trim(),
      };
      if (draftId !== null) draft.id = draftId;
      const { r, j } = await call("/journal/save", draft);
      if (r.status === 422) {
        for (const p of j.problems || [j.error]) problems.appendChild(el("li", {}, p));
        JM.say(status, "The draft was not saved: fix what is listed above.", "error");
        return;
      }
      if (!r.ok) throw new Error(j.error);
      draftId = j.id;
      audit.disabled = false;
      JM.say(status, `Draft ${j.id} saved.`, "ok");
    });
  });

  audit.addEventListener("click", () =>
    whileDisabled(audit, async () => {
      JM.say(status, "The audit agent is reading your draft against the entries it cites…");
      const { r, j } = await call("/journal/audit", { id: draftId });
      if (!r.ok) throw new Error(j.error);
      showReport(j.status, j.report);
      metaUrl = j.metaUrl;
      publish.hidden = !(j.status === "approved" && metaUrl);
      JM.say(status, j.status === "approved" ? "Approved: register it onchain to put it on sale." : "Not approved: revise the draft and save again.", j.status === "approved" ? "ok" : "error");
    }),
  );

  publish.addEventListener("click", async () => {
    publish.disabled = true;
    try {
      const { w, account, cfg } = await JM.connect();
      JM.say(status, "Confirm the registration in your wallet: one transaction.");
      const data = "0x" + JM.encode("f2c298be", [["string", metaUrl]]);
      const tx = await JM.sendTx(w, account, cfg.identityRegistry, data);
      await JM.waitForReceipt(tx, status);
      for (let i = 0; i < 30; i++) {
        const { r, j } = await call("/journal/minted", { id: draftId, tx });
        if (r.status === 409 && r.headers.get("retry-after")) {
          await new Promise((res) => setTimeout(res, 2000));
          continue;
        }
        if (!r.ok) throw new Error(j.error);
        status.textContent = "";
        status.className = "status ok";
        status.append("Live: ");
        status.appendChild(el("a", { href: "/journal/" + j.slug, id: "live-link" }, "/journal/" + j.slug));
        publish.hidden = true;
        return;
      }
      throw new Error("The registration is not confirmed yet; try again in a minute.");
    } catch (e) {
      JM.say(status, JM.walletError(e), "error");
      publish.disabled = false;
    }
  });
})();
