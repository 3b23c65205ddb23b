// The Preferans browser client: plain JavaScript, no build step.
// The server is authoritative: this page only draws the state frames it receives
// and sends the id of the action the player clicked (only legal ones are offered).
// Every word comes from the project's gettext catalog (i18n.js: t, tn, tp).
"use strict";
(function () {
  const { SUITS, STRAINS, $, el, cardId, sortHand, suitClass, cardSvg, actText, cardLabel, rankText } = PREF;
  const { t, tn, tp } = I18N;
  // The chosen language (the top bar's button changes it: PREF.setLang).
  let lang = PREF.lang;

  function applyI18n() {
    document.querySelectorAll("#rules option").forEach((o) => { o.textContent = tp("preset", o.value); });
    $("sheet").alt = t("Score sheet"); $("sheet-big").alt = t("Score sheet");
    $("ranks").setAttribute("aria-label", t("Card ranks")); $("ranks").title = t("Card ranks");
    $("autoplay-label").title = t("A card you have no choice about (the only one you may play) is played by itself after a moment");
    document.title = t("Preferans");
  }
  function onLang(newLang) {
    lang = newLang; applyI18n(); lastSheetKey = "";
    if (state) render(); else if (!$("lobby").hidden) { renderSeatSpecs(); renderOptions(); }
    if (!$("missing").hidden) showMissing();
    if (archived) showArchived(archived);
    $("ranks").value = PREF.ranks;
  }

  // ---------------------------------------------------------------- lobby: create a table
  function renderSeatSpecs() {
    const box = $("seat-specs"); const n = +$("players").value;
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", { text: t("Seats") }));
    box.append(el("div", { class: "spec" }, el("span", { text: t("Seat {n}", { n: 1 }) }), el("b", { text: t("You") })));
    for (let i = 1; i < n; i++) {
      const sel = el("select", { "data-seat": i, "aria-label": t("Seat {n}", { n: i + 1 }) },
        el("option", { value: "human", text: t("A friend (invite)") }),
        ...["random", "easy", "medium", "hard", "expert"].map((lv) => el("option", { value: "bot:" + lv, text: t("Bot") + " — " + tp("level", lv) })));
      sel.value = old[i - 1] || "bot:easy";
      box.append(el("div", { class: "spec" }, el("span", { text: t("Seat {n}", { n: i + 1 }) }), sel));
    }
  }
  // The rule options (GET /api/presets: every option with its group, kind and words), drawn as a form:
  // each option's value starts as the chosen preset's; the ones the player changes are marked and sent.
  let presets = null, optionFields = [], optionGroups = [];
  const touched = new Set();
  const presetValue = (field) => valueText(presets[$("rules").value][field]);
  function valueText(v) { return Array.isArray(v) ? v.join(" ") : String(v); }
  function controlValue(c) { return c.type === "checkbox" ? String(c.checked) : c.value.trim(); }
  function setControl(c, text) { if (c.type === "checkbox") c.checked = text === "true"; else c.value = text; }
  function markChanged(c) {
    c.closest(".opt").classList.toggle("changed", controlValue(c) !== presetValue(c.dataset.field));
    const group = c.closest(".opt-group"), n = group.querySelectorAll(".opt.changed").length;
    group.querySelector(".opt-count").textContent = n ? tn("{n} changed", "{n} changed", n) : "";
  }
  function renderOptions() {
    const box = $("options-form");
    if (!presets || !box) return;
    const kept = {};
    box.querySelectorAll("[data-field]").forEach((c) => { kept[c.dataset.field] = controlValue(c); });
    const open = new Set([...box.querySelectorAll("details.opt-group[open]")].map((d) => d.dataset.group));
    box.replaceChildren(...optionGroups.map(([group, name]) => {
      // A group a fold of its own (the form would be a long page otherwise); its title says how many are changed.
      const set = el("details", { class: "opt-group", "data-group": group, open: open.has(group) || null },
        el("summary", {}, el("span", { text: t(name) }), el("span", { class: "opt-count" })));
      optionFields.filter((o) => o.group === group).forEach((o) => {
        const id = "opt-" + o.field;
        let control;
        if (o.kind === "bool") control = el("input", { type: "checkbox", id });
        else if (o.kind === "choice") control = el("select", { id }, ...o.choices.map(([v, label]) => el("option", { value: v, text: t(label) })));
        else if (o.kind === "int") control = el("input", { type: "number", id, min: 0, max: 1000000, inputmode: "numeric" });
        else control = el("input", { type: "text", id, inputmode: o.kind === "levels" ? "numeric" : "decimal", size: 10 });
        control.dataset.field = o.field;
        setControl(control, o.field in kept && touched.has(o.field) ? kept[o.field] : presetValue(o.field));
        const mark = () => { touched.add(o.field); markChanged(control); };
        control.addEventListener("input", mark); control.addEventListener("change", mark);
        const row = o.kind === "bool"
          ? el("div", { class: "opt check" }, el("label", { for: id }, control, " ", el("span", { class: "opt-name", text: t(o.name) })))
          : el("div", { class: "opt " + o.kind }, el("label", { for: id, class: "opt-name", text: t(o.name) }), control);
        row.append(el("span", { class: "opt-help", text: t(o.help) }));
        set.append(row);
        markChanged(control);
      });
      return set;
    }));
  }
  // The preset changed: every option the player has not touched takes the new preset's value.
  function presetChanged() {
    $("options-form").querySelectorAll("[data-field]").forEach((c) => {
      if (!touched.has(c.dataset.field)) setControl(c, presetValue(c.dataset.field));
      markChanged(c);
    });
  }
  // What the form sends: FIELD=VALUE for each option that differs from the preset.
  function chosenOptions() {
    const out = [];
    $("options-form").querySelectorAll("[data-field]").forEach((c) => {
      const v = controlValue(c);
      if (v !== presetValue(c.dataset.field)) out.push(c.dataset.field + "=" + v);
    });
    return out;
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
      " ", el("span", { class: "hint", text: new Date(x.at).toLocaleString(lang) }),
      " ", el("span", { class: "hint", "data-lobby": x.id }))));
    // Who is at each table now (any server process answers: the owners tell them by NOTIFY).
    if (recent.length) fetch("/api/lobby?ids=" + recent.map((x) => x.id).join(",")).then((r) => r.json()).then((d) => {
      for (const [id, e] of Object.entries(d.tables || {})) {
        const span = document.querySelector('[data-lobby="' + CSS.escape(id) + '"]');
        if (span && e) span.textContent = e.status === "finished" ? t("The game is over")
          : "· " + e.online.length + "/" + e.seats.length + " " + t("online");
      }
    }).catch(() => {});
    $("name").value = localStorage.getItem("pref_name") || "";
    // Signed in, you sit as yourself: the name is your account's (lobby.js and docs/club.md).
    if (PREF.account) { $("name").value = PREF.account.name; $("name").readOnly = true; }
    $("players").addEventListener("change", renderSeatSpecs);
    // The pool follows the preset until the player types his own.
    let poolTouched = false;
    $("pool").addEventListener("input", () => { poolTouched = true; });
    fetch("/api/presets").then((r) => r.json()).then((d) => {
      presets = d.presets; optionFields = d.options || []; optionGroups = d.groups || [];
      renderOptions();
    });
    $("rules").addEventListener("change", () => {
      if (presets && !poolTouched) $("pool").value = presets[$("rules").value].pool_target;
      if (presets) presetChanged();
    });
    renderSeatSpecs();
    $("create-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = $("name").value.trim();
      localStorage.setItem("pref_name", name);
      const seats = [{ kind: "human" }];
      $("seat-specs").querySelectorAll("select").forEach((s) => {
        // A bot is named in the creator's language («Бот 2»): the name is written on the sheet.
        const n = +s.dataset.seat + 1;
        seats.push(s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4), name: t("Bot {n}", { n }) });
      });
      const options = presets ? chosenOptions() : [];
      // No name typed: «Игрок 1» / "Player 1" in the creator's language (it is written on the sheet);
      // the table speaks the creator's language (bots' names, the record).
      const body = { name: name || t("Player {n}", { n: 1 }), rules: $("rules").value, pool: +$("pool").value, players: +$("players").value,
        seats, spectators: $("spectators").checked, options, lang, private: $("private").checked };
      const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json().catch(() => ({}));
      // A refused option is named in the player's words (the server's texts); the open options show it.
      if (!r.ok) { $("create-error").textContent = refusal(data) || t("Error");
        if (data.texts) $("options-box").open = true; return; }
      location.href = data.url;
    });
  }

  // A refused request in the player's words: the server's own texts (a rule option named), else the
  // catalog's text for its code, else the server's English.
  function refusal(data) {
    if (data.texts && data.texts[lang]) return data.texts[lang];
    return data.error && I18N.has("error", data.error) ? tp("error", data.error) : data.message;
  }

  // ---------------------------------------------------------------- an unknown table link
  function showMissing() {
    $("table").hidden = true; $("lobby").hidden = true; $("missing").hidden = false;
    $("missing-text").textContent = t("There is no table «{id}» on this server: the link may be mistyped, or the table is gone.", { id: tableId });
    setConn(null);
  }

  // An archived table (issue 25, server/archive.py): its live state is gone, its record and sheet stay.
  let archived = null;
  function showArchived(a) {
    archived = a;
    $("table").hidden = true; $("lobby").hidden = true; $("missing").hidden = true; $("archived").hidden = false;
    const when = new Date(a.last_played * 1000).toLocaleDateString(lang === "ru" ? "ru-RU" : "en-GB",
      { day: "numeric", month: "long", year: "numeric" });
    $("archived-text").textContent = a.reason === "finished"
      ? t("The game ended on {date}; its table has been archived, and the record and the final score sheet are kept.", { date: when })
      : a.record ? t("Nobody has played at this table since {date}, so it has been archived unfinished. The record of the game so far and the score sheet are kept.", { date: when })
        : t("Nobody played at this table, and it has been archived.");
    const links = $("archived-links"); links.replaceChildren();
    if (a.record) {
      // The viewer reads the kept record: every deal stepped through, with its analysis (issue 27).
      links.append(el("a", { class: "button", href: "/study/game/" + tableId, id: "study-link", text: t("Replay and analysis") }));
      links.append(el("a", { class: "button", href: a.record + "?lang=" + lang, download: "", text: t("Download record") }),
        el("a", { class: "button", href: a.record + "?format=json&lang=" + lang, download: "", text: t("Record for programs") }));
    }
    const img = $("archived-sheet");
    img.hidden = !a.record;
    img.src = a.sheet + "?lang=" + lang + "&layout=" + sheetLayout(); img.alt = t("Score sheet");
    setConn(null);
  }

  // ---------------------------------------------------------------- the table
  const tableId = (location.pathname.match(/^\/t\/([\w-]+)/) || [])[1];
  let ws = null, state = null, msgId = 0, retry = 0, lastSheetKey = "", remembered = "", gone = false;
  const chosen = new Set(); let discardKey = "";  // the discard being chosen (card ids), for one position
  const AUTO_DELAY = 700;  // ms the forced card stays marked before it is played by itself
  let autoTimer = null, autoKey = null, autoCard = null;

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + tableId);
    setConn(retry ? t("reconnecting…") : t("connecting…"));
    ws.onopen = () => { retry = 0; setConn(null); };
    ws.onmessage = (ev) => {
      const f = JSON.parse(ev.data);
      if (f.type === "state") { state = f; render(); }
      else if (f.type === "presence" && state) {
        // A player came or went: only the online dots change (bots are always online).
        state.table.seats.forEach((s) => { s.online = s.kind === "bot" || f.online.includes(s.seat); });
        state.table.watching = f.spectators;
        render();
      }
      else if (f.type === "error" && f.code === "no_table") { gone = true; showMissing(); }
      else if (f.type === "error") showError(f);
    };
    ws.onclose = (ev) => {
      ws = null;
      if (gone || ev.code === 4404) { gone = true; showMissing(); return; }
      setConn(t("reconnecting…"));
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
    };
  }
  function setConn(text) { const c = $("conn"); c.hidden = !text; c.textContent = text || ""; }
  function send(msg) { if (ws && ws.readyState === 1) { msg.id = ++msgId; ws.send(JSON.stringify(msg)); } }
  function act(id) { if (state) send({ type: "act", action: id, n: state.n }); }
  let errTimer = null;
  function showError(f) {
    // The engine's reason in the player's language when the server gave it; else the error's kind.
    // (In English the server's message says it exactly; in Russian the code's words when there is no text.)
    const text = (f.texts && f.texts[lang]) || (lang !== "en" && I18N.has("error", f.code) ? tp("error", f.code) : f.message);
    const s = $("status"); s.textContent = rankText(text); s.classList.add("err");
    clearTimeout(errTimer); errTimer = setTimeout(() => { s.classList.remove("err"); if (state) render(); }, 3000);
  }

  function nameOf(seat) {
    if (seat < 0) return t("talon");
    const s = state.table.seats[seat];
    if (s && s.kind === "dummy") return tp("seat", "dummy"); // гусарик's third hand («болван», docs/rules.md §16)
    return (s && s.name) || t("Seat {n}", { n: seat + 1 });
  }
  function positions(n, me) {
    // Clockwise from you: left, (across), right.
    const base = me === null ? 0 : me;
    const order = []; for (let k = 1; k < n; k++) order.push((base + k) % n);
    // By how many others sit at the table (two players and гусарик's dummy make a table of three seats).
    const names = { 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"] }[order.length];
    return { base, order, names };
  }
  function sitsOut(v, seat) { return v && v.players === 4 && v.dealer === seat; }
  // An all-pass being played: nobody declared (Kodeks 3.7.5).
  function allPassPlay(v) { return v.phase === "play" && v.declarer === null; }

  function render() {
    const f = state, tb = f.table, me = f.you;
    $("invite").value = location.origin + "/t/" + tb.id;
    if (me !== null && remembered !== tb.status + tb.deal) {
      remembered = tb.status + tb.deal;
      rememberTable(tb.id, tb.seats.filter((s) => s.kind !== "dummy").map((s) => s.name || "?").join(", ") + " · " + tp("preset", tb.rules) + " · " + t("Deal {n}", { n: tb.deal }));
    }
    // join box: free human seats for a visitor without a seat
    const free = tb.seats.filter((s) => !s.taken);
    $("join").hidden = !(me === null && free.length);
    if (!$("join").hidden) {
      $("join-name").value = $("join-name").value || localStorage.getItem("pref_name") || "";
      $("free-seats").replaceChildren(...free.map((s) => el("button", { class: "primary", type: "button",
        "data-seat": s.seat, onclick: () => takeSeat(s.seat) }, t("Sit here") + " — " + t("Seat {n}", { n: s.seat + 1 }))));
    }
    autoPlay();
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
    if (!r.ok) { const d = await r.json().catch(() => ({})); $("join-error").textContent = refusal(d) || t("That seat is taken."); return; }
    if (ws) ws.close(); // reconnect with the new seat cookie
  }

  function lastCalls(v) {
    // The last call of each seat in this deal (cards are ids 0–31; discards are hidden).
    const calls = {};
    (v.moves || []).forEach(([s, text], i) => { const id = v.move_ids[i]; if (id !== null && id >= 32) calls[s] = text; });
    return calls;
  }

  function miniHand(v, seat) {
    const row = el("div", { class: "mini-hand" });
    const known = v.known_hands && v.known_hands[String(seat)];
    if (known && known.length) sortHand(known).forEach((c) => row.append(cardSvg(c, "small")));
    else for (let k = 0; k < cardsLeft(v, seat); k++) row.append(el("span", { class: "back-stub" }));
    return row;
  }
  function renderPlayers() {
    const f = state, tb = f.table, v = f.view, n = tb.seats.length;
    const { order, names } = positions(n, f.you);
    const calls = v ? lastCalls(v) : {};
    const box = $("opponents"); box.replaceChildren();
    order.forEach((seat, i) => {
      const info = tb.seats[seat];
      // The dummy never acts: its row is marked while the whister chooses its card.
      const dummy = info.kind === "dummy", acting = v && (dummy ? v.phase === "play" && v.to_play === seat : v.to_act === seat);
      const div = el("div", { class: "player " + names[i] + (acting ? " acting" : "") + (dummy ? " dummy" : ""), "data-seat": seat });
      div.append(playerLine(seat, info, v, calls));
      if (v && !sitsOut(v, seat)) div.append(miniHand(v, seat));
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
      if (v && !sitsOut(v, base)) mine.append(miniHand(v, base));
    }
  }
  function playerLine(seat, info, v, calls) {
    const line = el("div", { class: "pline" });
    if (info.kind !== "dummy") line.append(el("span", { class: "dot " + (info.online ? "on" : "off"), title: info.online ? t("online") : t("offline") }));
    line.append(el("b", { text: nameOf(seat) }));
    if (info.kind === "bot") line.append(el("span", { class: "tag", text: t("Bot") + " · " + tp("level", info.level) }));
    const out = sitsOut(v, seat);
    if (v && v.dealer === seat) line.append(el("span", { class: "tag dealer", text: out ? t("dealer, sits out") : t("dealer") }));
    if (v && v.declarer === seat && v.contract) line.append(el("span", { class: "tag decl", text: actText(v.contract) }));
    // The 4-handed dealer who sits out has tricks only from the all-pass talon (Kodeks 3.7.6.1).
    const playing = v && (v.phase === "play" || v.phase === "over");
    const idle = info.kind === "dummy" && v && v.declarer === null; // гусарик's all-pass: the dummy takes no part (rules.md §16)
    if (playing && !idle && (!out || v.tricks_won[seat] > 0)) line.append(el("span", { class: "tricks", text: tn("{n} trick", "{n} tricks", v.tricks_won[seat]) }));
    if (v && calls[seat] && !playing) line.append(el("span", { class: "bubble", text: actText(calls[seat]) }));
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
    $("review").hidden = true; $("review").replaceChildren();
    $("bidding").replaceChildren();
    if (!v) {
      const free = tb.seats.filter((s) => !s.taken).length;
      status.textContent = tb.status === "waiting"
        ? tn("Waiting for players: {n} free seat. Send the invitation link.", "Waiting for players: {n} free seats. Send the invitation link.", free)
        : (tb.spectators ? "" : t("This table does not allow spectators."));
      return;
    }
    // All-pass has no contract to show: the status names the deal kind instead of the bare phase.
    let head = t("Deal {n}", { n: f.deal }) + " · " + (allPassPlay(v) ? tp("deal kind", "all_pass") : tp("phase", v.phase));
    if (v.contract) head += " · " + t("Contract") + ": " + actText(v.contract) + " (" + nameOf(v.declarer) + ")";
    if (v.phase === "over") head = t("Deal {n}", { n: f.deal }) + " · " + (tb.result ? resultText(tb.result) : tp("phase", "over"));
    else if (v.to_act !== null) head += " · " + (v.to_act === f.you ? t("Your turn") : t("Waiting for {name}", { name: nameOf(v.to_act) }));
    status.textContent = head;
    status.classList.toggle("mine", v.to_act === f.you && v.phase !== "over");
    if (v.phase === "over") { renderReview(); return; }
    // The talon lies on the table from the deal until the first trick is taken (face up once shown).
    const tal = v.talon || [];
    if (!v.completed_tricks.length || (allPassPlay(v) && tal.some((c) => c))) {
      talon.append(el("span", { class: "label", text: t("Talon") }));
      tal.forEach((c) => talon.append(cardSvg(c, "small")));
    }
    if (v.phase !== "play") return;
    const { base, order, names } = positions(tb.seats.length, f.you);
    // A card of the talon led on all-pass (seat -1, Kodeks 3.7.6) lies across the middle.
    const where = (seat) => seat < 0 ? "tl" : seat === base ? "bottom" : names[order.indexOf(seat)];
    let cards = v.trick, last = false;
    if (!cards.length && v.completed_tricks.length) { cards = v.completed_tricks[v.completed_tricks.length - 1].cards; last = true; }
    cards.forEach(([s, c]) => trick.append(cardSvg(c, "in-trick " + where(s) + (last ? " faded" : ""))));
    if (last) trick.append(el("span", { class: "last-label", text: t("last trick") }));
  }

  // After the deal: why it ended so (when that needs saying), what it wrote on the sheet and where each
  // line comes from (the server's words: preferans.scoring.reasons), the tricks, and every hand face up.
  function story(r) {
    const lines = (r.story && (r.story[lang] || r.story.en)) || [];
    const n = (r.written || []).length;
    return { why: lines.length > n ? lines[0] : null, entries: lines.slice(lines.length - n) };
  }
  function renderReview() {
    const f = state, tb = f.table, v = f.view, r = tb.result;
    const box = $("review"); box.hidden = false;
    if (!r) return;
    reviewContent(box, r, (v.talon || []).filter((c) => c));
    if (f.you !== null && tb.status !== "finished") {
      const humans = tb.seats.filter((s) => s.kind === "human").length;
      const votes = tb.stop_votes || [];
      box.append(el("div", { class: "actions" },
        el("button", { class: "primary", type: "button", id: "next-deal", onclick: () => send({ type: "next" }) }, t("Next deal")),
        el("button", { type: "button", id: "stop-game", class: "quiet", disabled: votes.includes(f.you),
          onclick: () => $("stop-dialog").showModal() }, t("End the game by agreement") + (votes.length ? " (" + votes.length + "/" + humans + ")" : ""))));
    }
  }
  // A finished deal in words (the review after the deal, and the previous deal's afterwards):
  // the result, the tricks, what it wrote on the sheet, every hand as dealt and the talon shown.
  function reviewContent(box, r, talon) {
    box.append(el("h2", { text: resultText(r) }));
    const told = story(r);
    if (told.why) box.append(el("p", { class: "why", text: told.why }));
    const seats = Object.keys(r.tricks || {}).map(Number);
    if (seats.length) {
      // «Аня 7», or «Бот 2: 7» where a name ends in a figure (so «Бот 2 7» cannot be misread).
      const told = (s, n) => nameOf(s) + (/[\d\s]$/.test(nameOf(s)) ? ": " : " ") + n;
      const parts = seats.map((s) => told(s, r.tricks[String(s)]));
      if (r.players === 4 && r.dealer_tricks) parts.push(told(r.dealer, r.dealer_tricks));
      box.append(el("div", { class: "tricks-line", text: t("Tricks: {tricks}", { tricks: parts.join(", ") }) }));
    }
    box.append(el("h4", { text: t("Written on the sheet") }));
    const ul = el("ul", { class: "written" });
    told.entries.forEach((line) => ul.append(el("li", { text: line })));
    if (!(r.written || []).length) ul.append(el("li", { text: t("nothing") }));
    box.append(ul);
    box.append(el("h4", { text: t("The hands as dealt") }));
    const hands = el("div", { class: "hands" });
    Object.keys(r.hands || {}).map(Number).forEach((s) => {
      const cards = el("div", { class: "cards" });
      sortHand(r.hands[String(s)]).forEach((c) => cards.append(cardSvg(c, "small")));
      hands.append(el("div", { class: "hand-row", "data-seat": s }, el("span", { class: "who", text: nameOf(s) }), cards));
    });
    if (talon.length) {
      const cards = el("div", { class: "cards" }); talon.forEach((c) => cards.append(cardSvg(c, "small")));
      hands.append(el("div", { class: "hand-row" }, el("span", { class: "who", text: t("Talon") }), cards));
    }
    box.append(hands);
  }
  // The deal before the one in progress stays open to everybody after «Next deal» (issue 27):
  // its review, the calls and every trick, in a dialog over the table.
  function openPrevious() {
    const r = state && state.table.previous;
    if (!r) return;
    const box = $("previous-body"); box.replaceChildren();
    $("previous-title").textContent = t("Deal {n}", { n: r.deal });
    reviewContent(box, r, r.shown_talon || []);
    if ((r.calls || []).length) {
      box.append(el("h4", { text: t("Calls") }));
      box.append(el("p", { class: "calls-line" }, ...r.calls.map(([s, a], i) => el("span", {},
        (i ? ", " : ""), el("span", { class: "who", text: nameOf(s) + " " }), el("b", { text: actText(a) })))));
    }
    if ((r.tricks_played || []).length) {
      box.append(el("h4", { text: t("Tricks") }));
      const ol = el("ol", { class: "log" });
      r.tricks_played.forEach(([winner, cards]) => {
        const li = el("li", { class: "trick-line" });
        cards.forEach(([s, c]) => li.append(" ", el("span", { class: "tc s" + suitClass(c), title: s < 0 ? t("Talon") : nameOf(s), text: cardLabel(c) }),
          el("sub", { text: initials(s) })));
        if (winner !== null && winner >= 0) li.append(" → ", el("b", { text: nameOf(winner) }));
        ol.append(li);
      });
      box.append(ol);
    }
    $("previous-dialog").showModal();
  }

  function renderHand() {
    const f = state, v = f.view;
    const hand = $("hand"); hand.replaceChildren();
    const ctl = $("controlled"); ctl.replaceChildren();
    if (!v || f.you === null || v.phase === "over") return;
    const legal = new Map((v.legal || []).filter(([id]) => id < 32).map(([id, text]) => [id, text]));
    const mineToPlay = v.to_act === f.you && (v.to_play === null || v.to_play === f.you || v.phase !== "play");
    // The discard: a tap chooses a card (or puts it back); the two go only when confirmed (renderControls).
    const discarding = v.phase === "discard" && mineToPlay;
    if (!discarding || discardKey !== f.deal + ":" + f.n) { chosen.clear(); discardKey = f.deal + ":" + f.n; }
    const pick = (id) => {
      if (chosen.has(id)) chosen.delete(id); else if (chosen.size < 2) chosen.add(id);
      render();
    };
    const cardButton = (c, ok, dim) => {
      const id = cardId(c);
      const s = cardSvg(c, (ok ? "legal" : (dim ? "dim" : "")) + (chosen.has(id) ? " chosen" : "")
        + (autoCard === id ? " auto" : ""));
      const choose = discarding ? () => pick(id) : () => act(id);
      if (ok) { s.setAttribute("tabindex", "0"); s.addEventListener("click", choose);
        s.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(); }); }
      return s;
    };
    sortHand(v.hand).forEach((c) => hand.append(cardButton(c, mineToPlay && legal.has(cardId(c)), mineToPlay && legal.size)));
    // Playing another hand (the declarer's open partner in open defence, and so on).
    if (v.to_act === f.you && v.phase === "play" && v.to_play !== null && v.to_play !== f.you) {
      const cards = (v.known_hands && v.known_hands[String(v.to_play)]) || [];
      const dummy = (state.table.seats[v.to_play] || {}).kind === "dummy"; // «за болвана»: its own words
      ctl.append(el("div", { class: "label", text: dummy ? t("Playing for the dummy") : t("Playing for {name}", { name: nameOf(v.to_play) }) }));
      const row = el("div", { class: "hand other" });
      sortHand(cards).forEach((c) => row.append(cardButton(c, legal.has(cardId(c)), true)));
      ctl.append(row);
    }
  }

  // What the player has chosen in the claim and report forms. The page redraws on every frame
  // (a bot's bid, someone coming online), so the choices live here, not only in the <select>s.
  const picks = { claim: null, what: null, who: null };
  function keep(sel, key) {
    if (picks[key] !== null && [...sel.options].some((o) => o.value === picks[key])) sel.value = picks[key];
    sel.addEventListener("change", () => { picks[key] = sel.value; });
    return sel;
  }
  // Table options (issue 10): claim tricks during play; report an irregularity during the auction.
  function renderIrregular(box, f, v, tb) {
    const opts = tb.options || {};
    const row = el("div", { class: "calls irregular" });
    if (opts.claims && v.phase === "play") {
      const left = 10 - v.completed_tricks.length;
      const pick = el("select", { id: "claim-n", "aria-label": t("How many of the remaining tricks does your side take?") },
        ...Array.from({ length: left + 1 }, (_, k) => el("option", { value: k, text: tn("{n} trick", "{n} tricks", k) })));
      keep(pick, "claim");
      row.append(el("span", { class: "irregular-form" }, pick, el("button", { type: "button", class: "quiet", id: "claim",
        onclick: () => send({ type: "claim", tricks: +pick.value }) }, t("Claim tricks"))));
    }
    if (opts.irregularity_reports && v.phase === "bidding") {
      const what = el("select", { id: "report-what", "aria-label": t("What happened") },
        ...["talon-seen", "talon-exposed", "talon-taken", "misdeal", "out-of-turn"].map((w) =>
          el("option", { value: w, text: w === "out-of-turn" ? tp("report", "a call out of turn") : tp("call", `!${w}`) })));
      const who = el("select", { id: "report-who", "aria-label": t("Who committed it") },
        ...state.table.seats.filter((s) => s.kind !== "dummy").map((s) => el("option", { value: s.seat, text: nameOf(s.seat) })));
      keep(what, "what"); keep(who, "who");
      row.append(el("span", { class: "irregular-form" }, what, who, el("button", { type: "button", class: "quiet", id: "report",
        onclick: () => {
          const msg = { type: "report", what: what.value, offender: +who.value };
          if (what.value === "out-of-turn") msg.call = "pass";
          send(msg);
        } }, t("Report an irregularity"))));
    }
    // An accusation is not a fact (issue 14): the accused (or, where the table agrees, every
    // other player) confirms or denies a report about another seat.
    const acc = tb.accusation;
    if (acc && (acc.waiting || []).includes(f.you)) {
      const vars = { who: nameOf(acc.reporter), name: nameOf(acc.offender), what: actText(acc.what) };
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

  function bidButton(id, text, off) {
    const m = text.replace(/^dark /, "").match(/^(\d+)(NT|♠|♣|♦|♥)$/);
    const cls = "bid s" + (m ? (m[2] === "NT" ? "nt" : SUITS.indexOf(m[2])) : "x") + (off ? " off" : "");
    return el("button", { type: "button", class: cls, "data-action": text, disabled: off, onclick: off ? null : () => act(id),
      "aria-label": actText(text) }, actText(text.replace(/^dark /, "")));
  }
  // The bids as the ladder players know (seed 002 p.17): a row per level, a column per suit, the
  // bids that cannot be made now dimmed in their place; a second ladder for dark bids.
  function ladder(legal, dark) {
    const byText = new Map(legal.map(([id, text]) => [text, id]));
    const grid = el("div", { class: "ladder" + (dark ? " dark" : "") });
    grid.append(el("span", { class: "head", text: dark ? tp("call", "dark {call}", { call: t("bids") }) : t("bids") }));
    for (let level = 6; level <= 10; level++) {
      grid.append(el("span", { class: "lvl", text: String(level) }));
      STRAINS.forEach((s) => {
        const text = (dark ? "dark " : "") + level + s;
        grid.append(byText.has(text) ? bidButton(byText.get(text), text, false) : bidButton(-1, text, true));
      });
    }
    return grid;
  }
  function renderControls() {
    const f = state, v = f.view, tb = f.table;
    const box = $("controls"); box.replaceChildren();
    if (!v || f.you === null || v.phase === "over") return;
    renderIrregular(box, f, v, tb);
    if (v.to_act !== f.you) return;
    if (v.phase === "discard") { renderDiscard(box, v); return; }
    if (autoCard !== null) box.append(el("div", { class: "label auto-note", id: "auto-note",
      text: t("Played by itself: {card}", { card: cardLabel(PREF.cardText(autoCard)) }) }));
    const calls = (v.legal || []).filter(([id]) => id >= 32);
    const isLadderBid = (text) => /^(dark )?\d+(NT|♠|♣|♦|♥)$/.test(text);
    const others = calls.filter(([, text]) => !isLadderBid(text));
    const bids = calls.filter(([, text]) => isLadderBid(text));
    // During the auction and the declaration the calls take the middle of the table (there is no trick yet).
    const where = v.phase === "play" ? box : $("bidding");
    if (others.length) {
      const row = el("div", { class: "calls" });
      others.forEach(([id, text]) => row.append(el("button", { type: "button", class: "call", "data-action": text, onclick: () => act(id) }, actText(text))));
      where.append(row);
    }
    if (bids.length || v.phase === "bidding") {
      const ladders = el("div", { class: "ladders" });
      // In the auction the ladder is always there, even when every bid is beaten (all dimmed: the
      // player sees why only pass is left).
      if (v.phase === "bidding" || bids.some(([, text]) => !text.startsWith("dark "))) ladders.append(ladder(bids, false));
      if (bids.some(([, text]) => text.startsWith("dark "))) ladders.append(ladder(bids, true));
      where.append(ladders);
    }
  }
  // The discard chosen in the hand, then «Discard» (both cards sent, in order) or «Choose again».
  function renderDiscard(box, v) {
    const ids = [...chosen];
    const cards = ids.map((id) => cardLabel(PREF.cardText(id))).join(" ");
    box.append(el("div", { class: "label", id: "discard-note", text: ids.length === 2
      ? t("Discard {cards}?", { cards }) : tn("Choose two cards to discard: {n} chosen", "Choose two cards to discard: {n} chosen", ids.length) }));
    const row = el("div", { class: "calls" });
    row.append(el("button", { type: "button", id: "discard-confirm", class: "primary", disabled: ids.length !== 2,
      onclick: () => { if (chosen.size !== 2) return; const n = state.n; chosen.clear();
        ids.forEach((id, k) => send({ type: "act", action: id, n: n + k })); } }, t("Discard")));
    if (ids.length) row.append(el("button", { type: "button", id: "discard-cancel", onclick: () => { chosen.clear(); render(); } }, t("Choose again")));
    box.append(row);
    // Any other call of the phase (none in the rules today) stays offered.
    const calls = (v.legal || []).filter(([id]) => id >= 32);
    if (calls.length) {
      const other = el("div", { class: "calls" });
      calls.forEach(([id, text]) => other.append(el("button", { type: "button", class: "call", "data-action": text, onclick: () => act(id) }, actText(text))));
      box.append(other);
    }
  }
  // Auto-play (the player's setting): the one card he has no choice about (the server's "forced",
  // bots/automatic.py) is played by itself after a moment, marked meanwhile so he sees it go.
  function autoPlay() {
    const f = state, v = f && f.view;
    const card = v && f.you !== null && v.to_act === f.you && $("autoplay").checked ? v.forced : null;
    const key = card === null ? null : f.deal + ":" + f.n;
    if (key === autoKey) return;
    clearTimeout(autoTimer); autoKey = key; autoCard = card;
    if (card === null || card === undefined) { autoCard = null; return; }
    autoTimer = setTimeout(() => {
      if (state && state.deal + ":" + state.n === key) { send({ type: "act", action: card, n: state.n }); }
    }, AUTO_DELAY);
  }
  function resultText(r) {
    // The deal's label as the server's sheet wrote it (preferans.scoring.deal_label), in the chosen language.
    return r ? (r.labels && r.labels[lang]) || r.label : "";
  }
  function initials(seat) { return seat < 0 ? t("Talon") : String(seat + 1); }

  // On a phone the sheet is drawn in its phone layout (its words ≥ 12 px at 390 px wide; Enlarge doubles it).
  const sheetLayout = () => (innerWidth <= 820 ? "phone" : "wide");
  function sheetUrl(tb, key) { return "/api/tables/" + tb.id + "/sheet.svg?lang=" + lang + "&layout=" + sheetLayout() + "&k=" + encodeURIComponent(key); }
  function renderSide() {
    const f = state, tb = f.table, v = f.view;
    const sheetKey = lang + ":" + sheetLayout() + ":" + tb.deal + ":" + (tb.sheet ? tb.sheet.labels.length : 0);
    if (sheetKey !== lastSheetKey) {
      lastSheetKey = sheetKey;
      const url = sheetUrl(tb, sheetKey);
      $("sheet").src = url; $("sheet-new-tab").href = url;
      if ($("sheet-dialog").open) $("sheet-big").src = url;
    }
    // The table's rules: the preset and the pool, and every option changed from the preset, in words.
    const changes = tb.changes || [];
    $("rules-box").replaceChildren(
      el("div", { class: "rules-line" }, el("span", { text: t("Rules of this table") + ": " }),
        el("b", { text: tp("preset", tb.rules) + ", " + t("pool {pool}", { pool: tb.pool }) })),
      ...(changes.length ? [el("ul", { class: "changes" }, ...changes.map((c) => el("li", { "data-field": c.field },
        el("span", { text: (c.name[lang] || c.name.en) + ": " }), el("b", { text: c.value[lang] || c.value.en }))))] : []));
    const rb = $("result-box"); rb.replaceChildren();
    rb.hidden = !(tb.result || tb.previous || tb.status === "finished");
    if (tb.result) rb.append(el("div", { class: "res-line" }, el("span", { class: "muted", text: t("Result") + ": " }),
      el("span", { class: "res", text: resultText(tb.result) })));
    else if (tb.previous) {
      rb.append(el("div", { class: "res-line" }, el("span", { class: "muted", text: t("Previous deal") + ": " }),
        el("span", { class: "res", text: resultText(tb.previous) })),
        el("button", { type: "button", id: "previous-open", onclick: openPrevious }, t("Look at it")));
    }
    if (tb.status === "finished") {
      rb.append(el("h3", { text: t("The game is over") }));
      if (tb.settlement && tb.sheet) {
        const ul = el("ul", { class: "settle" });
        tb.sheet.names.forEach((nm, i) => ul.append(el("li", {}, el("span", { text: nm }), el("b", { text: (tb.settlement_whole || tb.settlement)[i], title: (tb.settlement_paper || tb.settlement)[i] }))));
        rb.append(ul);
      }
      // The record in the player's language (its lang header: a resumed game speaks it).
      rb.append(el("a", { class: "button", href: "/study/game/" + tb.id, id: "study-link", text: t("Replay and analysis") }), " ",
                el("a", { class: "button", href: "/api/tables/" + tb.id + "/record?lang=" + lang, download: "", text: t("Download record") }),
                " ", el("a", { class: "button", href: "/api/tables/" + tb.id + "/record?format=json&lang=" + lang, download: "",
                  text: t("Record for programs") }));
    }
    const log = $("log"); log.replaceChildren();
    if (!v) return;
    // Calls and discards in order (the talon when it was turned up), then the play one line per trick.
    let cardMoves = 0, talonTold = false;
    const shown = (v.talon || []).filter((c) => c);
    const tellTalon = () => {
      if (talonTold || !shown.length || v.contract === null && v.phase === "play") return;
      talonTold = true;
      const li = el("li", { class: "talon-line" }, el("span", { class: "who", text: t("Talon") + ":" }));
      shown.forEach((c) => li.append(" ", el("span", { class: "tc s" + suitClass(c), text: cardLabel(c) })));
      log.append(li);
    };
    v.moves.forEach(([s, text], i) => {
      const id = v.move_ids[i];
      if (id === null || id < 32) {
        const discard = id === null || (v.declarer !== null && cardMoves < 2 && s === v.declarer && v.phase !== "bidding");
        cardMoves++;
        if (!discard) return;
        tellTalon();
        const what = id === null ? t("discards") : t("discards {card}", { card: cardLabel(text) });
        log.append(el("li", { class: "discard-line" }, el("span", { class: "who", text: nameOf(s) }), " ", el("span", { text: what })));
        return;
      }
      log.append(el("li", {}, el("span", { class: "who", text: nameOf(s) }), " ", el("span", { class: "call", text: actText(text) })));
    });
    if (v.phase !== "bidding") tellTalon();
    const trickLine = (n, cards, winner) => {
      const li = el("li", { class: "trick-line" }, el("span", { class: "who", text: t("Trick {n}", { n }) + ":" }));
      cards.forEach(([s, c]) => li.append(" ", el("span", { class: "tc s" + suitClass(c), title: s < 0 ? t("Talon") : nameOf(s), text: cardLabel(c) }),
        el("sub", { text: initials(s) })));
      if (winner !== null) li.append(" → ", el("b", { text: nameOf(winner) }));
      log.append(li);
    };
    v.completed_tricks.forEach((tr, k) => trickLine(k + 1, tr.cards, tr.winner));
    if (v.trick.length) trickLine(v.completed_tricks.length + 1, v.trick, null);
    // The deal's end in the log too: its result and where each sheet line comes from.
    if (v.phase === "over" && tb.result) {
      log.append(el("li", { class: "result-line" }, el("b", { text: resultText(tb.result) })));
      const told = story(tb.result);
      [told.why, ...told.entries].filter(Boolean).forEach((line) => log.append(el("li", { class: "story-line", text: line })));
    }
    log.scrollTop = log.scrollHeight;
  }

  // The sheet, enlarged over the page (readable at full width), and in a new tab.
  function openSheet() {
    if (!state) return;
    $("sheet-big").src = $("sheet").src;
    $("sheet-dialog").showModal();
  }
  $("sheet-open").addEventListener("click", openSheet);
  $("sheet-thumb").addEventListener("click", openSheet);
  $("sheet-close").addEventListener("click", () => $("sheet-dialog").close());
  $("previous-close").addEventListener("click", () => $("previous-dialog").close());

  $("stop-yes").addEventListener("click", () => { $("stop-dialog").close(); send({ type: "stop" }); });
  $("stop-no").addEventListener("click", () => $("stop-dialog").close());
  $("ranks").addEventListener("change", () => PREF.setRanks($("ranks").value));
  // Auto-play of a forced card: the player's own setting, kept in this browser.
  $("autoplay").checked = localStorage.getItem("pref_autoplay") === "1";
  $("autoplay").addEventListener("change", () => {
    localStorage.setItem("pref_autoplay", $("autoplay").checked ? "1" : "0");
    autoKey = null; if (state) render();
  });

  $("copy").addEventListener("click", async () => {
    const inp = $("invite"); inp.select();
    try { await navigator.clipboard.writeText(inp.value); } catch (e) { document.execCommand("copy"); }
    $("copy").textContent = t("Copied"); setTimeout(() => { $("copy").textContent = t("Copy"); }, 1500);
  });

  async function start() {
    await PREF.start({ onLang });
    applyI18n();
    $("ranks").value = PREF.ranks;
    if (!tableId) { initLobby(); return; }
    const r = await fetch("/api/tables/" + tableId).catch(() => null);
    if (r && r.status === 404) { gone = true; showMissing(); return; }
    if (r && r.status === 410) { gone = true; showArchived(await r.json()); return; }
    $("table").hidden = false;
    connect();
  }
  start();
})();
