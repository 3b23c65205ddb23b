// The Preferans browser client: plain JavaScript, no build step.
// The server is authoritative: this page only draws the state frames it receives
// and sends the id of the action the player clicked (only legal ones are offered).
"use strict";
(function () {
  const SUITS = ["♠", "♣", "♦", "♥"];
  const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  let lang = localStorage.getItem("pref_lang") || ((navigator.language || "en").startsWith("ru") ? "ru" : "en");
  const $ = (id) => document.getElementById(id);

  const { t, tn, tp } = I18N;  // the project's gettext catalog (i18n.js)
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") e.className = attrs[k];
      else if (k === "text") e.textContent = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  function cardId(text) { return SUITS.indexOf(text.slice(-1)) * 8 + RANKS.indexOf(text.slice(0, -1)); }
  function sortHand(cards) {
    // Suit order ♠ ♣ ♦ ♥, high to low, as format_hand prints.
    return cards.slice().sort((a, b) => { const x = cardId(a), y = cardId(b);
      return (x >> 3) - (y >> 3) || (y & 7) - (x & 7); });
  }
  function cardImg(text, extra) {
    return el("img", Object.assign({ class: "card", src: "/cards/" + encodeURIComponent(text) + ".svg",
      alt: text, "data-card": text, draggable: "false" }, extra || {}));
  }
  function backImg() { return el("img", { class: "card back", src: "/cards/back.svg", alt: "?" }); }
  function actText(text) {
    // An action's name as the player reads it (preferans.i18n.call_name): calls in the catalog's
    // context "call", NT → БК in Russian, cards and suit bids as they are.
    if (text.startsWith("dark ")) return tp("call", "dark {call}", { call: actText(text.slice(5)) });
    if (text.startsWith("!out-of-turn ")) return tp("call", "out of turn: {call}", { call: actText(text.slice(13)) });
    let m = text.match(/^(\d+)-no-talon$/);
    if (m) return tp("call", "{level} without the talon", { level: m[1] });
    m = text.match(/^(\d+)(NT|♠|♣|♦|♥)$/);
    if (m) return m[1] + (m[2] === "NT" ? tp("strain", "NT") : m[2]);
    if (text.length <= 3 && "♠♣♦♥".includes(text.slice(-1))) return text;
    return tp("call", text);
  }
  function applyI18n() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((e) => {
      if (!e.dataset.msgid) e.dataset.msgid = e.textContent.trim();  // the English text is the message id
      e.textContent = t(e.dataset.msgid);
    });
    $("lang").textContent = lang === "ru" ? "EN" : "RU";
    document.title = t("Preferans");
  }
  $("lang").addEventListener("click", async () => {
    lang = lang === "ru" ? "en" : "ru"; localStorage.setItem("pref_lang", lang);
    await I18N.load(lang); applyI18n(); lastSheetKey = "";
    if (state) render(); else if (!$("lobby").hidden) renderSeatSpecs();
  });

  // ---------------------------------------------------------------- lobby: create a table
  function renderSeatSpecs() {
    const box = $("seat-specs"); const n = +$("players").value;
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", { text: t("Seats") }));
    box.append(el("div", { class: "spec" }, el("span", { text: t("Seat {n}", { n: 1 }) }), el("b", { text: t("You") })));
    for (let i = 1; i < n; i++) {
      const sel = el("select", { "data-seat": i, "aria-label": t("Seat {n}", { n: i + 1 }) },
        el("option", { value: "human", text: t("A friend (invite)") }),
        ...["random", "easy", "medium", "hard"].map((lv) => el("option", { value: "bot:" + lv, text: t("Bot") + " — " + tp("level", lv) })));
      sel.value = old[i - 1] || (i === 1 ? "bot:easy" : "bot:easy");
      box.append(el("div", { class: "spec" }, el("span", { text: t("Seat {n}", { n: i + 1 }) }), sel));
    }
  }
  function recentTables() {
    try { return JSON.parse(localStorage.getItem("pref_tables") || "[]"); } catch (e) { return []; }
  }
  function rememberTable(id, label) {
    const list = recentTables().filter((x) => x.id !== id);
    list.unshift({ id, label, at: Date.now() });
    localStorage.setItem("pref_tables", JSON.stringify(list.slice(0, 8)));
  }
  function initLobby() {
    $("lobby").hidden = false;
    const recent = recentTables();
    $("recent").hidden = !recent.length;
    $("recent-list").replaceChildren(...recent.map((x) => el("li", {}, el("a", { href: "/t/" + x.id, text: x.label || x.id }),
      " ", el("span", { class: "hint", text: new Date(x.at).toLocaleString(lang) }))));
    $("name").value = localStorage.getItem("pref_name") || "";
    $("players").addEventListener("change", renderSeatSpecs);
    // The pool follows the preset until the player types his own.
    let presets = null, poolTouched = false;
    $("pool").addEventListener("input", () => { poolTouched = true; });
    fetch("/api/presets").then((r) => r.json()).then((d) => { presets = d.presets; });
    $("rules").addEventListener("change", () => {
      if (presets && !poolTouched) $("pool").value = presets[$("rules").value].pool_target;
    });
    renderSeatSpecs();
    $("create-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = $("name").value.trim();
      localStorage.setItem("pref_name", name);
      const seats = [{ kind: "human" }];
      $("seat-specs").querySelectorAll("select").forEach((s) => {
        seats.push(s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) });
      });
      const options = $("options").value.split("\n").map((s) => s.trim()).filter(Boolean);
      const body = { name, rules: $("rules").value, pool: +$("pool").value, players: +$("players").value,
        seats, spectators: $("spectators").checked, options };
      const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json();
      if (!r.ok) { $("create-error").textContent = data.message || t("Error"); return; }
      location.href = data.url;
    });
  }

  // ---------------------------------------------------------------- the table
  const tableId = (location.pathname.match(/^\/t\/([\w-]+)/) || [])[1];
  let ws = null, state = null, msgId = 0, retry = 0, lastSheetKey = "", remembered = "";

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + tableId);
    setConn(retry ? t("reconnecting…") : t("connecting…"));
    ws.onopen = () => { retry = 0; setConn(null); };
    ws.onmessage = (ev) => {
      const f = JSON.parse(ev.data);
      if (f.type === "state") { state = f; render(); }
      else if (f.type === "error") showError(f.message);
    };
    ws.onclose = () => {
      ws = null; setConn(t("reconnecting…"));
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
    };
  }
  function setConn(text) { const c = $("conn"); c.hidden = !text; c.textContent = text || ""; }
  function send(msg) { if (ws && ws.readyState === 1) { msg.id = ++msgId; ws.send(JSON.stringify(msg)); } }
  function act(id) { if (state) send({ type: "act", action: id, n: state.n }); }
  let errTimer = null;
  function showError(text) {
    const s = $("status"); s.textContent = text; s.classList.add("err");
    clearTimeout(errTimer); errTimer = setTimeout(() => { s.classList.remove("err"); if (state) render(); }, 2500);
  }

  function nameOf(seat) {
    if (seat < 0) return t("Talon");
    const s = state.table.seats[seat]; return (s && s.name) || t("Seat {n}", { n: seat + 1 });
  }
  function positions(n, me) {
    // Clockwise from you: left, (across), right.
    const base = me === null ? 0 : me;
    const order = []; for (let k = 1; k < n; k++) order.push((base + k) % n);
    const names = n === 3 ? ["left", "right"] : ["left", "top", "right"];
    return { base, order, names };
  }

  function render() {
    const f = state, tb = f.table, v = f.view, me = f.you;
    $("invite").value = location.origin + "/t/" + tb.id;
    if (me !== null && remembered !== tb.status + tb.deal) {
      remembered = tb.status + tb.deal;
      rememberTable(tb.id, tb.seats.map((s) => s.name || "?").join(", ") + " · " + tb.rules + " · " + t("Deal {n}", { n: tb.deal }));
    }
    // join box: free human seats for a visitor without a seat
    const free = tb.seats.filter((s) => !s.taken);
    $("join").hidden = !(me === null && free.length);
    if (!$("join").hidden) {
      $("join-name").value = $("join-name").value || localStorage.getItem("pref_name") || "";
      $("free-seats").replaceChildren(...free.map((s) => el("button", { class: "primary", type: "button",
        "data-seat": s.seat, onclick: () => takeSeat(s.seat) }, t("Sit here") + " — " + t("Seat {n}", { n: s.seat + 1 }))));
    }
    renderPlayers();
    renderCentre();
    renderHand();
    renderControls();
    renderSide();
  }

  async function takeSeat(seat) {
    const name = $("join-name").value.trim();
    if (!name) { $("join-error").textContent = t("Enter your name first."); return; }
    localStorage.setItem("pref_name", name);
    const r = await fetch("/api/tables/" + tableId + "/seats/" + seat, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
    if (!r.ok) { const d = await r.json(); $("join-error").textContent = d.message || t("That seat is taken."); return; }
    if (ws) ws.close(); // reconnect with the new seat cookie
  }

  function lastCalls(v) {
    // The last call of each seat in this deal (cards are ids 0–31; discards are hidden).
    const calls = {};
    (v.moves || []).forEach(([s, text], i) => { const id = v.move_ids[i]; if (id !== null && id >= 32) calls[s] = text; });
    return calls;
  }

  function renderPlayers() {
    const f = state, tb = f.table, v = f.view, n = tb.players;
    const { order, names } = positions(n, f.you);
    const calls = v ? lastCalls(v) : {};
    const box = $("opponents"); box.replaceChildren();
    order.forEach((seat, i) => {
      const info = tb.seats[seat];
      const div = el("div", { class: "player " + names[i] + (v && v.to_act === seat ? " acting" : ""), "data-seat": seat });
      div.append(playerLine(seat, info, v, calls));
      const row = el("div", { class: "mini-hand" });
      if (v) {
        const known = v.known_hands && v.known_hands[String(seat)];
        if (known && known.length) sortHand(known).forEach((c) => row.append(cardImg(c, { class: "card small" })));
        else {
          const cnt = cardsLeft(v, seat);
          for (let k = 0; k < cnt; k++) row.append(el("span", { class: "back-stub" }));
        }
      }
      div.append(row);
      if (f.you !== null && info.kind === "human" && info.taken && !info.online && tb.status === "playing") {
        div.append(el("button", { type: "button", class: "quiet to-bot", "data-seat": seat,
          onclick: () => send({ type: "bot", seat, level: "easy" }) }, t("Let a bot play for them")));
      }
      box.append(div);
    });
    const mine = $("my-info"); mine.replaceChildren();
    mine.classList.toggle("acting", !!v && v.to_act === f.you && f.you !== null);
    if (f.you !== null) mine.append(playerLine(f.you, tb.seats[f.you], v, calls));
    else {
      // A spectator sits behind seat 1: its player at the bottom, cards face down unless they lie open.
      const base = positions(n, null).base;
      mine.classList.toggle("acting", !!v && v.to_act === base);
      mine.append(playerLine(base, tb.seats[base], v, calls),
        el("span", { class: "watching", text: tb.spectators ? t("You are watching") : t("This table does not allow spectators.") }));
      const row = el("div", { class: "mini-hand" });
      const known = v && v.known_hands && v.known_hands[String(base)];
      if (known && known.length) sortHand(known).forEach((c) => row.append(cardImg(c, { class: "card small" })));
      else if (v) for (let k = 0; k < cardsLeft(v, base); k++) row.append(el("span", { class: "back-stub" }));
      mine.append(row);
    }
  }
  function playerLine(seat, info, v, calls) {
    const line = el("div", { class: "pline" });
    line.append(el("span", { class: "dot " + (info.online ? "on" : "off"), title: info.online ? t("online") : t("offline") }));
    line.append(el("b", { text: info.name || t("Seat {n}", { n: seat + 1 }) }));
    if (info.kind === "bot") line.append(el("span", { class: "tag", text: t("Bot") + " · " + tp("level", info.level) }));
    if (v && v.dealer === seat) line.append(el("span", { class: "tag dealer", text: t("dealer") }));
    if (v && v.declarer === seat && v.contract) line.append(el("span", { class: "tag decl", text: actText(v.contract) }));
    if (v && v.phase === "play" || v && v.phase === "over") line.append(el("span", { class: "tricks", text: t("tricks") + ": " + v.tricks_won[seat] }));
    if (v && calls[seat] && v.phase !== "play" && v.phase !== "over") line.append(el("span", { class: "bubble", text: actText(calls[seat]) }));
    return line;
  }
  function cardsLeft(v, seat) {
    const active = v.players === 4 ? [1, 2, 3].map((k) => (v.dealer + k) % 4) : [0, 1, 2];
    if (!active.includes(seat)) return 0;
    let played = 0;
    v.completed_tricks.forEach((tr) => tr.cards.forEach(([s]) => { if (s === seat) played++; }));
    v.trick.forEach(([s]) => { if (s === seat) played++; });
    if (v.phase === "discard" && v.declarer === seat) {
      const done = v.move_ids.filter((x, k) => v.moves[k][0] === seat && (x === null || x < 32)).length;
      return 12 - done;
    }
    return Math.max(0, 10 - played);
  }

  function renderCentre() {
    const f = state, v = f.view, tb = f.table;
    const status = $("status"); status.classList.remove("err");
    const trick = $("trick"); trick.replaceChildren();
    const talon = $("talon"); talon.replaceChildren();
    if (!v) {
      const free = tb.seats.filter((s) => !s.taken).length;
      status.textContent = tb.status === "waiting" ? t("Waiting for players: {n} free seat(s). Send the invitation link.", { n: free }) : (tb.spectators ? "" : t("This table does not allow spectators."));
      return;
    }
    let head = t("Deal {n}", { n: f.deal }) + " · " + tp("phase", v.phase);
    if (v.contract) head += " · " + t("Contract") + ": " + actText(v.contract) + " (" + nameOf(v.declarer) + ")";
    if (v.phase === "over") head = t("Deal {n}", { n: f.deal }) + " · " + (tb.result ? resultText(tb.result) : t("Deal over"));
    else if (v.to_act !== null) head += " · " + (v.to_act === f.you ? t("Your turn") : t("Waiting for {name}", { name: nameOf(v.to_act) }));
    status.textContent = head;
    status.classList.toggle("mine", v.to_act === f.you && v.phase !== "over");
    const { base } = positions(tb.players, f.you);
    // A card of the talon led on all-pass (seat -1, Kodeks 3.7.6) lies across the middle.
    const where = (seat) => seat < 0 ? "tl" : ["bottom", "left", tb.players === 3 ? "right" : "top", "right"][(seat - base + tb.players) % tb.players];
    let cards = v.trick, last = false;
    if (!cards.length && v.completed_tricks.length && (v.phase === "play" || v.phase === "over")) { cards = v.completed_tricks[v.completed_tricks.length - 1].cards; last = true; }
    cards.forEach(([s, c]) => trick.append(cardImg(c, { class: "card in-trick " + where(s) + (last ? " faded" : "") })));
    if (last) trick.append(el("span", { class: "last-label", text: t("last trick") }));
    const tal = v.talon || [];
    const allPass = v.phase === "play" && v.contract === null;
    if (v.phase !== "over" && (v.phase !== "play" || (allPass && tal.some((c) => c)))) {
      talon.append(el("span", { class: "label", text: t("Talon") }));
      tal.forEach((c) => talon.append(c ? cardImg(c, { class: "card small" }) : backImg()));
    }
  }

  function renderHand() {
    const f = state, v = f.view;
    const hand = $("hand"); hand.replaceChildren();
    const ctl = $("controlled"); ctl.replaceChildren();
    if (!v || f.you === null) return;
    const legal = new Map((v.legal || []).filter(([id]) => id < 32).map(([id, text]) => [id, text]));
    const mineToPlay = v.to_act === f.you && (v.to_play === null || v.to_play === f.you || v.phase !== "play");
    sortHand(v.hand).forEach((c) => {
      const id = cardId(c); const ok = mineToPlay && legal.has(id);
      const img = cardImg(c, { class: "card" + (ok ? " legal" : (mineToPlay && legal.size ? " dim" : "")) });
      if (ok) { img.tabIndex = 0; img.addEventListener("click", () => act(id));
        img.addEventListener("keydown", (e) => { if (e.key === "Enter") act(id); }); }
      hand.append(img);
    });
    // Playing another hand (the declarer's open partner in open defence, and so on).
    if (v.to_act === f.you && v.phase === "play" && v.to_play !== null && v.to_play !== f.you) {
      const cards = (v.known_hands && v.known_hands[String(v.to_play)]) || [];
      ctl.append(el("div", { class: "label", text: t("Playing for {name}", { name: nameOf(v.to_play) }) }));
      const row = el("div", { class: "hand other" });
      sortHand(cards).forEach((c) => { const id = cardId(c); const ok = legal.has(id);
        const img = cardImg(c, { class: "card" + (ok ? " legal" : " dim") }); if (ok) img.addEventListener("click", () => act(id)); row.append(img); });
      ctl.append(row);
    }
  }

  // Table options (issue 10): claim tricks during play; report an irregularity during the auction.
  function renderIrregular(box, f, v, tb) {
    const opts = tb.options || {};
    const row = el("div", { class: "calls irregular" });
    if (opts.claims && v.phase === "play") {
      row.append(el("button", { type: "button", class: "quiet", id: "claim", onclick: () => {
        const n = window.prompt(t("How many of the remaining tricks does your side take?"), "");
        if (n !== null && /^\d+$/.test(n.trim())) send({ type: "claim", tricks: +n.trim() });
      } }, t("Claim tricks…")));
    }
    if (opts.irregularity_reports && v.phase === "bidding") {
      row.append(el("button", { type: "button", class: "quiet", id: "report", onclick: () => {
        const what = window.prompt(t("What happened: talon-seen, talon-exposed, talon-taken, misdeal or out-of-turn"), "talon-seen");
        if (what === null) return;
        const who = window.prompt(t("Who committed it (seat number, 1 = first)?"), "1");
        if (who === null || !/^\d+$/.test(who.trim())) return;
        const msg = { type: "report", what: what.trim(), offender: +who.trim() - 1 };
        if (what.trim() === "out-of-turn") msg.call = window.prompt(t("The call made out of turn (e.g. 7♦, pass)"), "pass") || "pass";
        send(msg);
      } }, t("Report an irregularity…")));
    }
    // An accusation is not a fact (issue 14): the accused (or, where the table agrees, every
    // other player) confirms or denies a report about another seat.
    const acc = tb.accusation;
    if (acc && (acc.waiting || []).includes(f.you)) {
      const vars = { who: nameOf(acc.reporter), name: nameOf(acc.offender), what: acc.what };
      box.append(el("div", { class: "label", id: "accusation", text: acc.offender === f.you
        ? t("{who} says you did this: {what}. Did you?", vars)
        : t("{who} says {name} did this: {what}. Did you see it?", vars) }));
      const answer = el("div", { class: "calls" });
      answer.append(el("button", { type: "button", id: "agree", onclick: () => send({ type: "answer", agree: true }) }, t("Yes, it happened")));
      answer.append(el("button", { type: "button", id: "deny", onclick: () => send({ type: "answer", agree: false }) }, t("No, it did not")));
      box.append(answer);
    }
    if (row.childNodes.length) box.append(row);
  }

  function renderControls() {
    const f = state, v = f.view, tb = f.table;
    const box = $("controls"); box.replaceChildren();
    if (!v || f.you === null) return;
    if (v.phase === "over") {
      if (tb.status !== "finished") {
        box.append(el("button", { class: "primary", type: "button", id: "next-deal", onclick: () => send({ type: "next" }) }, t("Next deal")));
        const humans = tb.seats.filter((s) => s.kind === "human").length;
        const votes = tb.stop_votes || [];
        const voted = votes.includes(f.you);
        box.append(el("button", { type: "button", id: "stop-game", class: "quiet", disabled: voted,
          onclick: () => send({ type: "stop" }) }, t("End the game by agreement") + (votes.length ? " (" + votes.length + "/" + humans + ")" : "")));
      }
      return;
    }
    renderIrregular(box, f, v, tb);
    if (v.to_act !== f.you) return;
    const calls = (v.legal || []).filter(([id]) => id >= 32);
    const bids = calls.filter(([, text]) => /^\d/.test(text));
    const others = calls.filter(([, text]) => !/^\d/.test(text));
    if (bids.length) {
      const grid = el("div", { class: "bids" });
      bids.forEach(([id, text]) => grid.append(el("button", { type: "button", class: "bid s" + suitClass(text), "data-action": text, onclick: () => act(id) }, actText(text))));
      box.append(grid);
    }
    if (others.length) {
      const row = el("div", { class: "calls" });
      others.forEach(([id, text]) => row.append(el("button", { type: "button", class: "call", "data-action": text, onclick: () => act(id) }, actText(text))));
      box.append(row);
    }
  }
  function initials(seat) { return seat < 0 ? t("Talon") : String(seat + 1); }
  function resultText(r) {
    // The deal's label as the server's sheet wrote it (preferans.scoring.deal_label), in the chosen language.
    return r ? (r.labels && r.labels[lang]) || r.label : "";
  }
  function suitClass(text) { const i = SUITS.indexOf(text.slice(-1)); return i < 0 ? "nt" : String(i); }

  function renderSide() {
    const f = state, tb = f.table, v = f.view;
    const sheetKey = lang + ":" + tb.deal + ":" + (tb.sheet ? tb.sheet.labels.length : 0);
    if (sheetKey !== lastSheetKey) {
      lastSheetKey = sheetKey;
      const url = "/api/tables/" + tb.id + "/sheet.svg?lang=" + lang + "&k=" + encodeURIComponent(sheetKey);
      $("sheet").src = url; $("sheet-link").href = url;
    }
    const rb = $("result-box"); rb.replaceChildren();
    rb.hidden = !(tb.result || tb.status === "finished");
    if (tb.result) rb.append(el("h3", { text: t("Result") }), el("p", { class: "res", text: resultText(tb.result) }));
    if (tb.status === "finished") {
      rb.append(el("h3", { text: t("The game is over") }));
      if (tb.settlement && tb.sheet) {
        const ul = el("ul", { class: "settle" });
        tb.sheet.names.forEach((nm, i) => ul.append(el("li", {}, el("span", { text: nm }), el("b", { text: tb.settlement[i] }))));
        rb.append(ul);
      }
      rb.append(el("a", { class: "button", href: "/api/tables/" + tb.id + "/record", download: "", text: t("Download record") }), " ",
                el("a", { class: "button", href: "/api/tables/" + tb.id + "/analysis?format=text", target: "_blank", text: t("Analysis") }),
                " ", el("a", { class: "button", href: "/api/tables/" + tb.id + "/record?format=json", download: "", text: "JSON" }));
    }
    const log = $("log"); log.replaceChildren();
    if (!v) return;
    // Calls and discards in order, then the play one line per trick.
    let cardMoves = 0;
    v.moves.forEach(([s, text], i) => {
      const id = v.move_ids[i];
      if (id === null || id < 32) {
        const discard = id === null || (v.declarer !== null && cardMoves < 2 && s === v.declarer && v.phase !== "bidding");
        cardMoves++;
        if (!discard) return;
        const what = id === null ? t("discards") : t("discards {card}", { card: text });
        log.append(el("li", {}, el("span", { class: "who", text: nameOf(s) }), " ", el("span", { text: what })));
        return;
      }
      log.append(el("li", {}, el("span", { class: "who", text: nameOf(s) }), " ", el("span", { class: "call", text: actText(text) })));
    });
    const trickLine = (n, cards, winner) => {
      const li = el("li", { class: "trick-line" }, el("span", { class: "who", text: t("Trick {n}", { n }) + ":" }));
      cards.forEach(([s, c]) => li.append(" ", el("span", { class: "tc s" + suitClass(c), title: s < 0 ? t("Talon") : nameOf(s), text: c }),
        el("sub", { text: initials(s) })));
      if (winner !== null) li.append(" → ", el("b", { text: nameOf(winner) }));
      log.append(li);
    };
    v.completed_tricks.forEach((tr, k) => trickLine(k + 1, tr.cards, tr.winner));
    if (v.trick.length) trickLine(v.completed_tricks.length + 1, v.trick, null);
    log.scrollTop = log.scrollHeight;
  }

  $("copy").addEventListener("click", async () => {
    const inp = $("invite"); inp.select();
    try { await navigator.clipboard.writeText(inp.value); } catch (e) { document.execCommand("copy"); }
    $("copy").textContent = t("Copied"); setTimeout(() => { $("copy").textContent = t("Copy"); }, 1500);
  });

  I18N.load(lang).then(() => {
    applyI18n();
    if (tableId) { $("table").hidden = false; connect(); }
    else initLobby();
  });
})();
