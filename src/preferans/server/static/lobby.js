// The lobby's open tables (/): public tables waiting for players, refreshed every few seconds;
// one click takes the first free seat (a guest under the name he types, a signed-in player as himself).
"use strict";
(function () {
  if (location.pathname !== "/") return;
  const { $, el } = PREF;
  const { t, tn, tp } = I18N;
  let tables = [], timer = null;

  function seatText(s) {
    if (!s.taken) return t("free seat");
    return s.kind === "bot" ? s.name + " (" + tp("level", s.level) + ")" : s.name;
  }
  function draw() {
    $("guest-name-row").hidden = !!PREF.account;
    $("open-empty").hidden = tables.length > 0;
    $("open-list").replaceChildren(...tables.map((tb) => {
      const free = tb.seats.filter((s) => !s.taken);
      const what = tp("preset", tb.rules) + " · " + t("pool {n}", { n: tb.pool }) + " · " +
        (tb.players === 2 ? t("гусарик (2 players)") : tn("{n} player", "{n} players", tb.players)) +
        (tb.match ? " · " + t("duplicate match, table {n}", { n: tb.match_table }) : "");
      return el("li", { "data-table": tb.id },
        el("div", { class: "what" }, el("b", { text: what }),
          el("div", { class: "who", text: tb.seats.map(seatText).join(", ") })),
        el("button", { type: "button", class: "primary join-open", onclick: () => join(tb, free[0]) },
          t("Join") + " · " + tn("{n} free seat", "{n} free seats", free.length)));
    }));
  }
  async function join(tb, seat) {
    const name = PREF.account ? PREF.account.name : $("guest-name").value.trim();
    if (!name) { $("open-error").textContent = t("Enter your name first."); $("guest-name").focus(); return; }
    if (!PREF.account) localStorage.setItem("pref_name", name);
    const r = await fetch("/api/tables/" + tb.id + "/seats/" + seat.seat, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
    const d = await r.json().catch(() => ({}));
    if (!r.ok && d.error !== "already_seated") { $("open-error").textContent = (d.texts && d.texts[PREF.lang]) || d.message || t("That seat is taken."); load(); return; }
    location.href = "/t/" + tb.id;
  }
  async function load() {
    clearTimeout(timer);
    try {
      const r = await fetch("/api/open-tables");
      if (r.ok) { tables = (await r.json()).tables; draw(); }
    } catch (e) { /* the next poll tries again */ }
    if (!document.hidden) timer = setTimeout(load, 5000);
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  async function start() {
    await PREF.start({ onLang: draw });
    $("guest-name").value = localStorage.getItem("pref_name") || "";
    load();
  }
  start();
})();
