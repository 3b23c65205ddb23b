// A player's profile (/u/{name}): his ratings, each drawn over time by the server (SVG), and his
// finished pulkas, newest first, each opening the replay viewer, the record and the final sheet.
"use strict";
(function () {
  const { $, el } = PREF;
  const { t, tn, tp } = I18N;
  const name = decodeURIComponent(location.pathname.replace(/^\/u\//, ""));
  const PAGE = 20;
  let offset = 0, data = null;

  // A result in whole whists, as the paper sheet is settled (the server rounds it): signed.
  function signed(v) {
    if (v == null) return el("span", { text: "—" });
    if (!v) return el("span", { text: "0" });
    return el("span", { class: v < 0 ? "minus" : "plus", text: (v < 0 ? "−" : "+") + Math.abs(v) });
  }
  function ratingCard(r) {
    return el("div", { class: "rating-card", "data-pool": r.pool }, el("b", { text: r.rating + (r.provisional ? "?" : "") }),
      el("span", { text: r.pool_name }), " ", el("span", { class: "hint", text: tn("{n} pulka", "{n} pulkas", r.games) }));
  }
  function who(s) {
    if (s.kind === "bot") return el("span", {}, s.name, el("span", { class: "tag-bot", text: tp("level", s.level) }));
    if (s.profile) return el("a", { href: "/u/" + encodeURIComponent(s.profile), text: s.name });
    return el("span", { text: s.name });
  }
  function ending(e) {
    if (e.ending === "agreement") return t("ended by agreement");
    return e.rated ? t("rated") : t("unrated");
  }
  function draw() {
    if (!data) return;
    document.title = data.name + " — " + t("Preferans");
    $("profile-name").textContent = data.name;
    $("ratings").replaceChildren(...(data.ratings.length ? data.ratings.map(ratingCard) : [el("p", { class: "empty", text: t("No rated pulka yet") })]));
    $("charts").replaceChildren(...data.ratings.map((r) => el("img", { class: "chart", alt: t("Rating") + " — " + r.pool_name,
      src: "/api/users/" + encodeURIComponent(data.name) + "/rating.svg?pool=" + r.pool + "&lang=" + PREF.lang })));
    if (!data.history.length) {
      $("history").replaceChildren(el("p", { class: "empty", text: t("No finished pulka yet.") }));
    } else {
      const rows = data.history.map((e) => {
        const players = el("td", {});
        e.seats.forEach((s, i) => { if (i) players.append(", "); players.append(who(s)); });
        const base = "/api/club/games/" + e.table;
        return el("tr", { "data-table": e.table },
          el("td", { text: new Date(e.finished * 1000).toLocaleString(PREF.lang, { dateStyle: "medium", timeStyle: "short" }) }),
          el("td", {}, tp("preset", e.rules), el("div", { class: "hint", text: t("pool {n}", { n: e.pool }) + " · " + tn("{n} deal", "{n} deals", e.deals) + " · " + ending(e) })),
          players,
          el("td", { class: "num" }, signed(e.whole)),
          el("td", {}, el("div", { class: "links" },
            el("a", { class: "button", href: "/study/game/" + e.table, text: t("Replay") }),
            el("a", { class: "button", href: base + "/record", download: "", text: t("Record") }),
            el("a", { class: "button", href: base + "/sheet.svg?lang=" + PREF.lang, target: "_blank", text: t("Sheet") }))));
      });
      $("history").replaceChildren(el("table", { class: "data history" },
        el("thead", {}, el("tr", {}, el("th", { text: t("Date") }), el("th", { text: t("Rules") }), el("th", { text: t("Who played") }),
          el("th", { class: "num", text: t("Whists") }), el("th", { text: "" }))),
        el("tbody", {}, ...rows)));
    }
    $("newer").disabled = offset === 0;
    $("older").disabled = offset + PAGE >= data.total;
    $("page-info").textContent = data.total ? t("{from}–{to} of {total}", { from: offset + 1, to: offset + data.history.length, total: data.total }) : "";
  }
  async function load() {
    const r = await fetch("/api/users/" + encodeURIComponent(name) + "?offset=" + offset + "&limit=" + PAGE + "&lang=" + PREF.lang);
    const d = await r.json().catch(() => ({}));
    if (!r.ok) {
      $("profile-name").textContent = name;
      const box = $("profile-missing"); box.hidden = false; box.textContent = (d.texts && d.texts[PREF.lang]) || d.message || t("Error");
      return;
    }
    data = d; draw();
  }
  async function start() {
    await PREF.start({ onLang: () => load() });
    $("newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
    $("older").addEventListener("click", () => { offset += PAGE; load(); });
    load();
  }
  start();
})();
