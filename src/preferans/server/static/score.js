// The score keeper of a game played with real cards (/score): a new sheet, the editor (/score/{id}) and the
// read-only link (/score/{id}/view).  Every deal is one line of the score keeper's own syntax, read on the
// server by the same reader as `preferans score` (there is no second reader here): the buttons only build
// such a line.  A deal not yet accepted waits in localStorage and is sent again, so a dropped connection or
// a reload loses nothing; a change names the sheet's version, so a resent deal is never written twice.
"use strict";
(function () {
  const { $, el } = PREF;
  const { t } = I18N;
  const parts = location.pathname.split("/").filter(Boolean);  // ["score"], ["score", id], ["score", id, "view"]
  const sheetId = parts[1] || null;
  const viewOnly = parts[2] === "view";
  let state = null;          // the sheet as the server last sent it
  let editing = null;        // the deal being corrected (its index), or null for a new deal
  let kind = "game";
  const pick = { declarer: null, level: null, strain: null, calls: {}, tricks: {} };
  let big = false;

  const api = (path) => path + (path.includes("?") ? "&" : "?") + "lang=" + PREF.lang;
  const keyName = () => "score_key_" + sheetId;
  const pendingName = () => "score_pending_" + sheetId;
  const headers = () => {
    const h = { "Content-Type": "application/json" };
    const key = localStorage.getItem(keyName());
    if (key) h["X-Score-Key"] = key;
    return h;
  };

  // -- a new sheet -------------------------------------------------------------------------------------------
  function drawNames() {
    const n = +$("count").value;
    const old = [...document.querySelectorAll("#names input")].map((i) => i.value);
    $("names").replaceChildren(...Array.from({ length: n }, (_, i) => el("label", {},
      el("span", { text: t("Player {n}", { n: i + 1 }) }),
      el("input", { value: old[i] || "", maxlength: 24, required: "", autocomplete: "off", autocapitalize: "words",
                    oninput: drawFirst }))));
    drawFirst();
  }
  function drawFirst() {
    const names = [...document.querySelectorAll("#names input")].map((i) => i.value.trim());
    const was = $("first").value;
    $("first").replaceChildren(...names.map((nm, i) => el("option", { value: String(i), text: nm || t("Player {n}", { n: i + 1 }) })));
    if (was && +was < names.length) $("first").value = was;
  }
  function recent() { try { return JSON.parse(localStorage.getItem("score_recent") || "[]"); } catch (e) { return []; } }
  function drawRecent() {
    const list = recent();
    $("recent").hidden = !list.length;
    $("recent-list").replaceChildren(...list.map((r) => el("li", {},
      el("a", { href: "/score/" + r.id + (r.edit ? "" : "/view"), text: r.names.join(", ") }),
      el("span", { class: "muted", text: " · " + new Date(r.at).toLocaleDateString(PREF.lang) }))));
  }
  async function createSheet(ev) {
    ev.preventDefault();
    $("new-error").textContent = "";
    const names = [...document.querySelectorAll("#names input")].map((i) => i.value.trim());
    const body = { players: names, rules: $("preset").value, pool: +$("pool").value, first_dealer: names[+$("first").value] };
    let r;
    try {
      r = await fetch(api("/api/score"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    } catch (e) { $("new-error").textContent = t("No connection to the server: try again."); return; }
    const data = await r.json();
    if (!r.ok) { $("new-error").textContent = data.message || data.error; return; }
    localStorage.setItem("score_key_" + data.id, data.key);
    localStorage.setItem("score_recent", JSON.stringify([{ id: data.id, names, at: Date.now(), edit: true }, ...recent()].slice(0, 20)));
    location.href = "/score/" + data.id;
  }

  // -- the sheet ---------------------------------------------------------------------------------------------
  async function load() {
    let r;
    try { r = await fetch(api("/api/score/" + sheetId), { headers: headers(), cache: "no-store" }); }
    catch (e) { offline(true); return; }
    offline(false);
    if (r.status === 404) { $("title").textContent = t("There is no such sheet."); return; }
    show(await r.json());
  }
  function offline(yes) {
    $("conn").hidden = !yes;
    $("conn").textContent = t("offline");
  }
  function show(s) {
    if (!s || !s.deals) return;
    state = s;
    const edit = s.can_edit && !viewOnly;
    $("title").textContent = s.title;
    $("status").textContent = s.over ? t("The pulka is closed.") : s.status;
    $("readonly").hidden = edit;
    $("editor").hidden = !edit || (s.over && editing === null);
    $("pulka").src = api("/api/score/" + s.id + "/sheet.svg?layout=phone&v=" + s.version);
    $("pulka").alt = t("Score sheet");
    drawSettlement(s);
    drawDeals(s, edit);
    $("view-link").value = location.origin + "/score/" + s.id + "/view";
    const key = localStorage.getItem(keyName());
    $("edit-link-row").hidden = !(edit && key);
    if (key) $("edit-link").value = location.origin + "/score/" + s.id + "?key=" + encodeURIComponent(key);
    $("download").href = "/api/score/" + s.id + "/game.jsonl";
    if (edit) {
      drawBuilder();
      const [a, b, c] = seated();  // an example in the players' own names: «Аня 6♠ Боря вист Вася пас»
      $("line").placeholder = t("e.g. {example}", { example: a + " 6♠ " + b + " " + word("whist", "вист") + (c ? " " + c + " " + word("pass", "пас") : "") });
    }
  }
  function drawSettlement(s) {
    $("settle-head").textContent = s.settlement.head;
    $("settle-foot").textContent = s.settlement.foot;
    const head = el("tr", {}, el("th", {}), ...s.names.map((n) => el("th", { text: n })));
    const rows = s.settlement.rows.map(([label, cells], i) => el("tr", { class: i === s.settlement.rows.length - 1 ? "whole" : "" },
      el("th", { text: label.replace(/\n\s*/g, " ") }), ...cells.map((c) => el("td", { text: c }))));
    $("settle").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }
  function drawDeals(s, edit) {
    $("no-deals").hidden = s.deals.length > 0;
    $("deals").replaceChildren(...s.deals.map((d) => el("li", { class: editing === d.n ? "editing" : "" },
      el("div", { class: "deal-head" },
        el("b", { text: d.n + 1 + ". " + d.label }),
        el("span", { class: "muted", text: " · " + t("dealer {name}", { name: d.dealer }) })),
      el("div", { class: "written", text: d.written }),
      // The line as it was typed, for the one who keeps the score (the others read what it wrote).
      edit ? el("div", { class: "typed muted", text: "«" + d.text + "»" + (d.quota ? " · «за своими»" : "") }) : null,
      edit ? el("div", { class: "deal-actions" },
        el("button", { type: "button", text: t("Correct"), onclick: () => startEdit(d) }),
        el("button", { type: "button", class: "danger", text: t("Delete"), onclick: () => remove(d) })) : null)));
  }

  // -- building a line with buttons ------------------------------------------------------------------------
  const word = (en, ru) => (PREF.lang === "ru" ? ru : en);
  const CALLS = [["whist", "вист", "whist"], ["pass", "пас", "pass"], ["half", "полвиста", "half-whist"]];
  function seated() {  // who plays this deal: four players — the dealer sits out (his talon tricks on all-pass only)
    if (!state) return [];
    return state.names.length === 4 ? state.names.filter((n) => n !== state.dealer) : state.names.slice();
  }
  function chips(options, chosen, onpick, cls) {
    return el("div", { class: "chips " + (cls || "") }, ...options.map(([value, label]) => el("button", {
      type: "button", class: "chip" + (value === chosen ? " on" : ""), "aria-pressed": String(value === chosen), text: label,
      onclick: () => { onpick(value === chosen ? null : value); drawBuilder(); buildLine(); } })));
  }
  function row(label, ...content) { return el("div", { class: "b-row" }, el("span", { class: "b-label", text: label }), ...content); }
  function drawBuilder() {
    document.querySelectorAll(".kind").forEach((b) => { b.classList.toggle("on", b.dataset.kind === kind); b.setAttribute("aria-pressed", String(b.dataset.kind === kind)); });
    const who = seated();
    const rows = [];
    const tricks = (name, max) => chips(Array.from({ length: max + 1 }, (_, i) => [i, String(i)]), pick.tricks[name],
      (v) => { if (v === null) delete pick.tricks[name]; else pick.tricks[name] = v; }, "tricks");
    if (kind === "allpass") {
      for (const n of state.names) rows.push(row(n, tricks(n, n === state.dealer && state.names.length === 4 ? 2 : 10)));
    } else {
      rows.push(row(kind === "misere" ? t("Misère by") : t("Declarer"), chips(who.map((n) => [n, n]), pick.declarer, (v) => { pick.declarer = v; })));
      if (kind === "misere") {
        if (pick.declarer) rows.push(row(t("his tricks"), tricks(pick.declarer, 10)));
      } else {
        rows.push(row(t("Game"), chips([6, 7, 8, 9, 10].map((l) => [l, String(l)]), pick.level, (v) => { pick.level = v; })));
        rows.push(row(t("Trumps"), chips(PREF.STRAINS.map((s) => [s, s === "NT" ? word("NT", "БК") : s]), pick.strain, (v) => { pick.strain = v; }, "suits")));
        for (const n of who.filter((x) => x !== pick.declarer)) {
          if (!pick.declarer) break;
          rows.push(row(n, chips(CALLS.map(([v, ru, en]) => [v, word(en, ru)]), pick.calls[n], (v) => { pick.calls[n] = v; })));
          if (pick.calls[n] === "whist") rows.push(row(t("{name}: tricks", { name: n }), tricks(n, 10)));
        }
      }
    }
    $("builder").replaceChildren(...rows);
  }
  function buildLine() {
    let line = "";
    if (kind === "allpass") {
      line = word("allpass", "распасы") + Object.entries(pick.tricks).map(([n, k]) => " " + n + " " + k).join("");
    } else if (pick.declarer) {
      if (kind === "misere") {
        line = pick.declarer + " " + word("misere", "мизер") + (pick.tricks[pick.declarer] !== undefined ? " " + pick.tricks[pick.declarer] : "");
      } else {
        line = pick.declarer + (pick.level ? " " + pick.level + (pick.strain ? (pick.strain === "NT" ? word("NT", "БК") : pick.strain) : "") : "");
        for (const n of seated()) {
          if (n === pick.declarer || !pick.calls[n]) continue;
          const c = CALLS.find((x) => x[0] === pick.calls[n]);
          line += " " + n + " " + word(c[2], c[1]);
        }
        for (const n of seated()) if (n !== pick.declarer && pick.calls[n] === "whist" && pick.tricks[n] !== undefined) line += " " + n + " " + pick.tricks[n];
      }
    }
    $("line").value = line;
    $("line-error").textContent = "";
    saveDraft();
    preview();
  }
  function resetPick() { pick.declarer = null; pick.level = null; pick.strain = null; pick.calls = {}; pick.tricks = {}; }

  // -- what the line would write ----------------------------------------------------------------------------
  let previewTimer = null;
  function preview() {
    clearTimeout(previewTimer);
    $("confirm").hidden = true;
    previewTimer = setTimeout(async () => {
      const line = $("line").value.trim();
      if (!line || editing !== null) { $("preview").textContent = ""; return; }
      try {
        const r = await fetch(api("/api/score/" + sheetId + "/check"), { method: "POST", headers: headers(), body: JSON.stringify({ text: line }) });
        const d = await r.json();
        if ($("line").value.trim() !== line) return;
        // While the line is being written, what is still missing is said quietly; in red only when it is sent.
        $("preview").classList.toggle("missing", !r.ok);
        $("preview").textContent = r.ok ? d.label + ": " + d.written : r.status === 409 ? "" : d.message;
      } catch (e) { /* offline: the line is checked when it is sent */ }
    }, 350);
  }
  function saveDraft() { localStorage.setItem("score_draft_" + sheetId, $("line").value); }

  // -- writing, correcting, taking out ---------------------------------------------------------------------
  async function send(change) {
    // change: {method, path, body, undoable}; kept until the server answers, sent again after a reload.
    localStorage.setItem(pendingName(), JSON.stringify(change));
    $("pending").hidden = false;
    $("pending").textContent = t("Sending…");
    let r;
    try {
      r = await fetch(api(change.path), { method: change.method, headers: headers(), body: JSON.stringify(change.body) });
    } catch (e) {
      offline(true);
      $("pending").textContent = t("No connection: the deal is kept on this phone and will be sent when the connection is back.");
      setTimeout(retryPending, 4000);
      return false;
    }
    offline(false);
    const d = await r.json();
    if (r.status === 409 && d.error === "stale") {
      // The sheet moved on: our deal was written before its answer was lost (or another phone wrote).
      localStorage.removeItem(pendingName());
      $("pending").hidden = true;
      show(d);
      const mine = change.method === "POST" && d.deals.length && d.deals[d.deals.length - 1].text === change.body.text;
      if (!mine) $("line-error").textContent = t("The sheet changed meanwhile (another phone?): check it and write the deal again.");
      else done();
      return mine;
    }
    localStorage.removeItem(pendingName());
    $("pending").hidden = true;
    if (r.status === 409 && d.error === "confirm") {
      $("confirm-text").textContent = d.message;
      $("confirm").hidden = false;
      $("confirm-yes").onclick = () => { $("confirm").hidden = true; change.body.quota = true; send(change); };
      return false;
    }
    if (!r.ok) { $("line-error").textContent = d.message || d.error; $("preview").textContent = ""; return false; }
    show(d);
    done();
    return true;
  }
  function done() {
    $("line-error").textContent = ""; $("preview").textContent = "";
    $("line").value = ""; saveDraft();
    editing = null; resetPick();
    $("editor-title").textContent = t("Next deal"); $("write").textContent = t("Write the deal"); $("cancel-edit").hidden = true;
    if (state) show(state);
  }
  async function retryPending() {
    const raw = localStorage.getItem(pendingName());
    if (!raw) return;
    await send(JSON.parse(raw));
  }
  function write() {
    clearTimeout(previewTimer);  // the answer to the line sent says it all
    const line = $("line").value.trim();
    if (!line) { $("line-error").textContent = t("Write the deal first: the buttons above build the line."); return; }
    if (!state) return;
    if (editing === null) send({ method: "POST", path: "/api/score/" + sheetId + "/deals", body: { text: line, quota: false, version: state.version } });
    else send({ method: "PUT", path: "/api/score/" + sheetId + "/deals/" + editing, body: { text: line, quota: state.deals[editing].quota, version: state.version } });
  }
  function startEdit(d) {
    editing = d.n; resetPick();
    $("editor").hidden = false;
    $("line").value = d.text; $("line-error").textContent = ""; $("preview").textContent = "";
    $("editor-title").textContent = t("Correct deal {n}", { n: d.n + 1 });
    $("write").textContent = t("Save the correction"); $("cancel-edit").hidden = false;
    drawDeals(state, true);
    $("editor").scrollIntoView({ behavior: "smooth", block: "start" });
    $("line").focus();
  }
  function remove(d) {
    if (!confirm(t("Take deal {n} ({label}) out of the sheet? The later deals are written again without it.", { n: d.n + 1, label: d.label }))) return;
    send({ method: "DELETE", path: "/api/score/" + sheetId + "/deals/" + d.n, body: { version: state.version } });
  }

  // -- live: the sheet follows the other phone ---------------------------------------------------------------
  async function poll() {
    if (state && !localStorage.getItem(pendingName())) {
      try {
        const r = await fetch(api("/api/score/" + sheetId + "?since=" + state.version), { headers: headers(), cache: "no-store" });
        offline(false);
        if (r.ok) { const d = await r.json(); if (d.deals) show(d); }
      } catch (e) { offline(true); }
    }
    setTimeout(poll, document.hidden ? 10000 : 2500);
  }

  async function main() {
    await PREF.start({ onLang: () => { if (sheetId) load(); else { drawNames(); drawRecent(); } localizePresets(); } });
    localizePresets();
    if (!sheetId) {
      $("new-sheet").hidden = false;
      $("count").addEventListener("change", drawNames);
      $("new-form").addEventListener("submit", createSheet);
      drawNames(); drawRecent();
      return;
    }
    const q = new URLSearchParams(location.search);
    if (q.get("key")) {  // the editor's link: the key is kept on this phone and leaves the address bar
      localStorage.setItem(keyName(), q.get("key"));
      history.replaceState(null, "", location.pathname);
    }
    $("sheet-page").hidden = false;
    document.querySelectorAll(".kind").forEach((b) => b.addEventListener("click", () => { kind = b.dataset.kind; resetPick(); drawBuilder(); buildLine(); }));
    $("line").value = localStorage.getItem("score_draft_" + sheetId) || "";
    $("line").addEventListener("input", () => { $("line-error").textContent = ""; saveDraft(); preview(); });
    $("line").addEventListener("keydown", (e) => { if (e.key === "Enter") write(); });
    $("write").addEventListener("click", write);
    $("cancel-edit").addEventListener("click", done);
    $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
    $("bigger").addEventListener("click", () => {
      big = !big;
      $("sheet-box").classList.toggle("big", big);
      $("bigger").setAttribute("aria-pressed", String(big));
      $("bigger").textContent = big ? t("Smaller") : t("Enlarge");
    });
    document.querySelectorAll(".copy").forEach((b) => b.addEventListener("click", async () => {
      const input = $(b.dataset.for); input.select();
      try { await navigator.clipboard.writeText(input.value); } catch (e) { document.execCommand("copy"); }
      b.textContent = t("Copied");
      setTimeout(() => { b.textContent = t("Copy"); }, 1500);
    }));
    window.addEventListener("online", retryPending);
    await load();
    if (localStorage.getItem(pendingName())) retryPending();
    else if ($("line").value) preview();
    setTimeout(poll, 2500);
  }
  function localizePresets() { document.querySelectorAll("#preset option").forEach((o) => { o.textContent = I18N.tp("preset", o.value); }); }
  main();
})();
