// The ratings (/ratings): people and bots of one rules family and table size, best first.
"use strict";
(function () {
  const { $, el } = PREF;
  const { t, tp } = I18N;
  let pool = new URLSearchParams(location.search).get("pool") || "";

  async function load() {
    const r = await fetch("/api/ratings?pool=" + encodeURIComponent(pool) + "&lang=" + PREF.lang);
    const d = await r.json();
    const select = $("pool");
    select.replaceChildren(el("option", { value: "", text: t("All rules") }), ...d.pools.map((p) => el("option", { value: p.pool, text: p.name })));
    select.value = pool;
    if (!d.players.length) { $("board").replaceChildren(el("p", { class: "empty", text: t("Nobody is rated here yet.") })); return; }
    const rows = d.players.map((p, i) => el("tr", { "data-name": p.name },
      el("td", { class: "num", text: String(i + 1) }),
      el("td", {}, p.bot ? el("span", { text: t("Bot") + " — " + tp("level", p.level) })
        : el("a", { href: "/u/" + encodeURIComponent(p.name), text: p.name })),
      el("td", { class: "hide-phone", text: p.pool_name }),
      el("td", { class: "num" }, el("b", { text: p.rating + (p.provisional ? "?" : "") })),
      el("td", { class: "num", text: String(p.games) })));
    $("board").replaceChildren(el("table", { class: "data board" },
      el("thead", {}, el("tr", {}, el("th", { class: "num", text: "#" }), el("th", { text: t("Player") }),
        el("th", { class: "hide-phone", text: t("Rules") }), el("th", { class: "num", text: t("Rating") }),
        el("th", { class: "num", text: t("Pulkas") }))),
      el("tbody", {}, ...rows)));
  }
  async function start() {
    await PREF.start({ onLang: () => load() });
    document.title = t("Ratings") + " — " + t("Preferans");
    $("pool").addEventListener("change", () => { pool = $("pool").value; history.replaceState(null, "", pool ? "?pool=" + pool : "/ratings"); load(); });
    load();
  }
  start();
})();
