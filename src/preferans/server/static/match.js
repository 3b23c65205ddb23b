// Duplicate matches: /match sets one up (tables, seats), /match/{id} shows its tables and compares,
// deal by deal, what the same seat scored with the same cards at each table (polled while they play).
"use strict";
(function () {
  const { $, el } = PREF;
  const { t, tn, tp } = I18N;
  const matchId = (location.pathname.match(/^\/match\/([\w-]+)/) || [])[1];
  const LEVELS = ["random", "easy", "medium", "hard", "expert"];
  let data = null, timer = null;

  // ------------------------------------------------------------ a new match
  function drawTables() {
    const box = $("match-tables"), n = +$("match-players").value, count = +$("match-count").value;
    const old = {}; box.querySelectorAll("select").forEach((s) => { old[s.dataset.key] = s.value; });
    box.replaceChildren();
    for (let k = 0; k < count; k++) {
      const fs = el("fieldset", { "data-table": k }, el("legend", { text: t("Table {n}", { n: k + 1 }) }));
      for (let i = 0; i < n; i++) {
        const label = t("Seat {n}", { n: i + 1 });
        if (k === 0 && i === 0) { fs.append(el("div", { class: "spec" }, el("span", { text: label }), el("b", { text: t("You") }))); continue; }
        const key = k + ":" + i;
        const sel = el("select", { "data-key": key, "aria-label": t("Table {n}", { n: k + 1 }) + ", " + label },
          el("option", { value: "human", text: t("A friend (invite)") }),
          ...LEVELS.map((lv) => el("option", { value: "bot:" + lv, text: t("Bot") + " — " + tp("level", lv) })));
        // By default the other tables mirror the first one's bots and a friend takes your seat there.
        sel.value = old[key] || (i === 0 ? "human" : "bot:easy");
        fs.append(el("div", { class: "spec" }, el("span", { text: label }), sel));
      }
      box.append(fs);
    }
  }
  function initNew() {
    $("new-match").hidden = false;
    document.title = t("Duplicate match") + " — " + t("Preferans");
    document.querySelectorAll("#match-rules option").forEach((o) => { o.textContent = tp("preset", o.value); });
    if (PREF.account) $("match-name-label").hidden = true;
    $("match-name").value = localStorage.getItem("pref_name") || "";
    $("match-players").addEventListener("change", drawTables);
    $("match-count").addEventListener("change", drawTables);
    drawTables();
    $("match-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const n = +$("match-players").value, count = +$("match-count").value;
      const tables = [];
      for (let k = 0; k < count; k++) {
        const seats = [];
        for (let i = 0; i < n; i++) {
          const sel = document.querySelector(`select[data-key="${k}:${i}"]`);
          const v = sel ? sel.value : "human";
          seats.push(v === "human" ? { kind: "human" } : { kind: "bot", level: v.slice(4), name: t("Bot {n}", { n: i + 1 }) });
        }
        tables.push(seats);
      }
      const name = $("match-name").value.trim();
      if (name) localStorage.setItem("pref_name", name);
      const body = { name: name || t("Player {n}", { n: 1 }), rules: $("match-rules").value, pool: +$("match-pool").value,
        players: n, tables, private: $("match-private").checked };
      const r = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const d = await r.json().catch(() => ({}));
      if (!r.ok) { $("match-error").textContent = (d.texts && d.texts[PREF.lang]) || d.message || t("Error"); return; }
      location.href = d.url;
    });
  }

  // ------------------------------------------------------------ a match: its tables and the comparison
  function cls(v) { return v.startsWith("+") ? "plus" : v.startsWith("−") ? "minus" : ""; }
  function seatName(table, s) {
    const seat = table.seats[s];
    if (!seat) return "—";
    if (!seat.taken) return t("free seat");
    return seat.kind === "bot" ? seat.name + " (" + tp("level", seat.level) + ")" : seat.name;
  }
  function status(tb) {
    return tb.status === "finished" ? t("The game is over") : tb.status === "playing" ? t("deal {n}", { n: tb.deals }) : t("waiting for players");
  }
  function seatsHead(n) {
    const row = el("tr", {}, el("th", { text: t("Table") }));
    for (let s = 0; s < n; s++) row.append(el("th", { class: "num", text: t("Seat {n}", { n: s + 1 }) }));
    return el("thead", {}, row);
  }
  function drawMatch() {
    const d = data, n = d.players;
    document.title = t("Duplicate match") + " — " + t("Preferans");
    $("match-summary").textContent = tp("preset", d.rules) + " · " + t("pool {n}", { n: d.pool }) + " · " +
      tn("{n} table", "{n} tables", d.tables.length) + " · " + tn("{n} deal compared", "{n} deals compared", d.compared);
    $("match-table-list").replaceChildren(el("table", { class: "data match-list" }, seatsHead(n),
      el("tbody", {}, ...d.tables.map((tb) => el("tr", {},
        el("td", {}, el("a", { href: "/t/" + tb.id, text: t("Table {n}", { n: tb.number }) }), el("div", { class: "hint", text: status(tb) })),
        ...Array.from({ length: n }, (_, s) => el("td", { class: "num", text: seatName(tb, s) })))))));
    const deals = $("match-deals");
    if (!d.deals.length) deals.replaceChildren(el("p", { class: "empty", text: t("No deal has been played to the end yet.") }));
    else deals.replaceChildren(...d.deals.slice().reverse().map((row) => {
      const body = el("tbody", {});
      row.tables.forEach((cell, k) => {
        const tr = el("tr", {}, el("td", {}, t("Table {n}", { n: k + 1 }), cell ? el("div", { class: "label", text: cell.label[PREF.lang] || cell.label.en }) : null));
        for (let s = 0; s < n; s++) {
          if (!cell) { tr.append(el("td", { class: "num hint", text: "…" })); continue; }
          const gain = row.gains ? row.gains[k][s] : null;
          const td = el("td", { class: "num" }, el("span", { class: cls(cell.nets[s]), text: cell.nets[s] }));
          if (gain !== null) td.append(el("div", { class: "hint", title: t("against this seat's average"), text: "Δ " + gain }));
          tr.append(td);
        }
        body.append(tr);
      });
      return el("div", { class: "deal-block", "data-deal": row.number },
        el("h3", { text: t("Deal {n}", { n: row.number }) + (row.complete ? "" : " · " + t("still being played at another table")) }),
        el("table", { class: "data" }, seatsHead(n), body));
    }));
    const totals = el("tbody", {});
    d.tables.forEach((tb, k) => {
      const tr = el("tr", {}, el("td", { text: t("Table {n}", { n: k + 1 }) }));
      for (let s = 0; s < n; s++) {
        const best = d.compared && Math.max(...d.gain_values.map((g) => g[s])) === d.gain_values[k][s] && d.gain_values[k][s] > 0;
        tr.append(el("td", { class: "num" + (best ? " best" : "") }, el("div", { text: seatName(tb, s) }),
          el("span", { class: cls(d.totals[k][s]), text: d.totals[k][s] }), el("div", { class: "hint", text: "Δ " + d.gains[k][s] })));
      }
      totals.append(tr);
    });
    $("match-totals").replaceChildren(el("table", { class: "data totals" }, seatsHead(n), totals),
      el("p", { class: "hint", text: t("Each seat gets the same cards at every table. Whists: what the deal was worth to the seat on the final settlement; Δ: that less the same seat's average over the tables — what the player made of the cards, the luck of the deal taken out. The best Δ of each seat is marked.") }));
  }
  async function loadMatch() {
    const r = await fetch("/api/matches/" + matchId).catch(() => null);
    const d = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) {
      $("match-view").hidden = true; $("match-missing").hidden = false;
      $("match-missing-text").textContent = (d.texts && d.texts[PREF.lang]) || d.message || t("Error");
      return;
    }
    data = d; $("match-view").hidden = false; drawMatch();
    clearTimeout(timer);
    if (d.tables.some((tb) => tb.status !== "finished")) timer = setTimeout(loadMatch, 4000);  // while they play
  }
  async function start() {
    await PREF.start({ onLang: () => { if (matchId) { if (data) drawMatch(); } else { initTexts(); drawTables(); } } });
    if (matchId) loadMatch(); else initNew();
  }
  function initTexts() { document.querySelectorAll("#match-rules option").forEach((o) => { o.textContent = tp("preset", o.value); }); }
  start();
})();
