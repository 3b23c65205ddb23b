// The study home (issue 27): open a record in the viewer (uploaded: read leniently on the
// server, problems named by line), your finished tables, the solver board and the puzzles.
"use strict";
(function () {
  const { $, el } = PREF;
  const { t, tn, tp } = I18N;

  function recentTables() {
    try { return JSON.parse(localStorage.getItem("pref_tables") || "[]"); } catch (e) { return []; }
  }
  // A signed-in player's finished pulkas (the club's history, on every device), newest first.
  let kept = [];
  async function loadKept() {
    const a = PREF.account;
    if (!a) return;
    const r = await fetch("/api/users/" + encodeURIComponent(a.name) + "?limit=10").catch(() => null);
    const d = r && r.ok ? await r.json().catch(() => null) : null;
    kept = d ? d.history : [];
  }
  function keptLabel(e) {
    return tp("preset", e.rules) + " · " + e.seats.map((s) => s.name).join(", ");
  }
  function drawRecent() {
    const ids = new Set(kept.map((e) => e.table));
    const list = kept.map((e) => ({ id: e.table, label: keptLabel(e), at: e.finished * 1000, whole: e.whole }))
      .concat(recentTables().filter((x) => !ids.has(x.id)));
    $("recent").hidden = !list.length;
    $("recent-list").replaceChildren(...list.map((x) => el("li", { "data-table": x.id },
      el("a", { href: "/study/game/" + x.id, text: x.label || x.id }), " ",
      el("span", { class: "hint", text: new Date(x.at).toLocaleDateString(PREF.lang) +
        (x.whole == null ? "" : " · " + (x.whole > 0 ? "+" : "") + STUDY.whists(x.whole)) }))));
    const more = $("recent-more");
    more.hidden = !PREF.account;
    if (PREF.account) more.href = "/u/" + encodeURIComponent(PREF.account.name);
  }
  function problemText(p) {
    const where = p.line ? t("line {n}", { n: p.line }) : (p.deal ? t("deal {n}", { n: p.deal }) : "");
    return (where ? where + ": " : "") + p.reason;
  }
  async function upload(ev) {
    ev.preventDefault();
    const out = $("upload-result"); out.replaceChildren();
    const file = $("file").files[0];
    const text = file ? await file.text() : $("record-text").value;
    if (!text.trim()) { out.append(el("p", { class: "error", text: t("Choose a file or paste a record.") })); return; }
    const r = await fetch("/api/study/records", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: file ? file.name : "", text }) });
    const body = await r.json().catch(() => ({}));
    if (r.status === 413) { out.append(el("p", { class: "error", text: t("The file is too big (at most 1 MB).") })); return; }
    if (!r.ok) {
      out.append(el("p", { class: "error", text: t("The record cannot be read.") }),
        el("p", { class: "error", text: body.reason ? problemText(body) : (body.message || "") }));
      return;
    }
    const problems = (body.problems || []).flat();
    if (body.ids.length === 1 && !problems.length) { location.href = body.urls[0]; return; }
    if (problems.length) {
      out.append(el("p", { text: tn("The record was read with {n} problem: the deals that replay are shown.",
        "The record was read with {n} problems: the deals that replay are shown.", problems.length) }));
      const ul = el("ul", { class: "problems" });
      problems.slice(0, 20).forEach((p) => ul.append(el("li", { text: problemText(p) })));
      out.append(ul);
    }
    const links = el("ul");
    body.urls.forEach((u, i) => links.append(el("li", {}, el("a", { href: u, text: t("Record {n}", { n: i + 1 }) }))));
    out.append(links);
  }
  $("upload-form").addEventListener("submit", upload);
  $("file").addEventListener("change", () => {
    const f = $("file").files[0];
    $("file-name").textContent = f ? f.name : t("no file chosen");
  });
  (async function () {
    await PREF.start({ onLang: () => { drawRecent(); $("record-text").placeholder = t("…or paste the record here"); } });
    document.title = t("Study") + " · " + t("Preferans");
    $("record-text").setAttribute("aria-label", t("Record"));
    $("record-text").placeholder = t("…or paste the record here");
    drawRecent();
    await loadKept();
    drawRecent();
  })();
})();
