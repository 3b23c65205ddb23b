// The solver board (issue 27): lay out a position by hand (an etude) or open one from the viewer
// (#pos=…), see on each playable card how many tricks it makes with best play after it (the
// server's double-dummy solver), play the cards out, take them back.  The server checks the
// position and plays every card; this page only keeps what it was told, to go back.
"use strict";
(function () {
  const { $, el, SUITS, RANKS, cardText, cardId, sortHand, actText, cardLabel } = PREF;
  const { t, tn, tp } = I18N;
  const S = STUDY;
  const GOALS = ["♠", "♣", "♦", "♥", "NT", "misere", "allpass"];
  const PLACES = [0, 1, 2, "talon"];
  let spec = { hands: [[], [], []], talon: [], goal: "tricks", trump: "♠", declarer: 0, leader: 0, mode: "suit_only" };
  let active = 0, names = null, stack = [], editing = true;

  function handName(i) { return names && names[i] ? names[i] : S.handWord(i); }
  function placeName(p) { return p === "talon" ? t("Talon (all-pass leads)") : handName(p); }
  function used() {
    const m = new Map();
    spec.hands.forEach((h, i) => h.forEach((c) => m.set(c, i)));
    spec.talon.forEach((c) => m.set(c, "talon"));
    return m;
  }
  function goalValue() { return spec.goal === "tricks" ? spec.trump : spec.goal; }

  // ---------------------------------------------------------------- the editor
  function drawEditor() {
    $("editor").hidden = !editing;
    const where = used();
    const places = $("places"); places.replaceChildren();
    PLACES.forEach((p) => {
      if (p === "talon" && spec.goal !== "allpass") return;
      const cards = p === "talon" ? spec.talon : spec.hands[p];
      const box = el("div", { class: "place" + (active === p ? " active" : ""), "data-place": p, tabindex: "0", role: "button",
        onclick: () => { active = p; drawEditor(); } },
        el("div", { class: "pname" }, el("span", { text: placeName(p) }), el("span", { class: "muted", text: String(cards.length) })));
      const row = el("div", { class: "pcards" });
      sortHand(cards).forEach((c) => row.append(el("button", { type: "button", class: "chip s" + SUITS.indexOf(c.slice(-1)), text: cardLabel(c), "data-card": c,
        onclick: (e) => { e.stopPropagation(); take(c); } })));
      box.append(row);
      places.append(box);
    });
    const picker = $("picker"); picker.replaceChildren();
    for (let s = 0; s < 4; s++) for (let r = 7; r >= 0; r--) {
      const c = cardText(s * 8 + r);
      picker.append(el("button", { type: "button", class: "chip s" + s + (where.has(c) ? " used" : ""), "data-card": c, text: cardLabel(c),
        "aria-pressed": String(where.has(c)), onclick: () => toggle(c) }));
    }
    const goal = $("goal");
    goal.replaceChildren(...GOALS.map((g) => el("option", { value: g, text: g === "misere" ? tp("call", "misere") : g === "allpass" ? tp("deal kind", "all_pass")
      : g === "NT" ? t("no trumps") : t("trumps {suit}", { suit: g }) })));
    goal.value = goalValue();
    const hands = [0, 1, 2].map((i) => el("option", { value: i, text: handName(i) }));
    $("declarer").replaceChildren(...hands.map((o) => o.cloneNode(true)));
    $("declarer").value = String(spec.declarer);
    $("declarer-box").hidden = spec.goal === "allpass";
    $("leader").replaceChildren(...hands);
    $("leader").value = String(spec.talon.length ? 0 : spec.leader);
    $("leader").disabled = spec.talon.length > 0;  // a talon card leads; first hand plays first (rules.md §8.2)
    $("mode-box").hidden = spec.goal !== "allpass";
    $("mode").replaceChildren(...[["suit_only", t("names the suit (3 players)")], ["participates", t("takes part (4 players)")],
      ["unused", t("not used (Rostov)")]].map(([v, text]) => el("option", { value: v, text })));
    $("mode").value = spec.mode;
  }
  function take(c) {
    spec.hands = spec.hands.map((h) => h.filter((x) => x !== c));
    spec.talon = spec.talon.filter((x) => x !== c);
  }
  function toggle(c) {
    const where = used();
    if (where.has(c)) take(c);
    else if (active === "talon") { if (spec.talon.length < 2) spec.talon.push(c); }
    else if (spec.hands[active].length < 10) spec.hands[active].push(c);
    drawEditor();
  }
  function randomDeal() {
    const deck = []; for (let i = 0; i < 32; i++) deck.push(cardText(i));
    for (let i = deck.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [deck[i], deck[j]] = [deck[j], deck[i]]; }
    spec.hands = [deck.slice(0, 10), deck.slice(10, 20), deck.slice(20, 30)];
    spec.talon = spec.goal === "allpass" && spec.mode !== "unused" ? deck.slice(30, 32) : [];
    drawEditor();
  }
  $("goal").addEventListener("change", () => {
    const g = $("goal").value;
    if (g === "misere" || g === "allpass") spec.goal = g; else { spec.goal = "tricks"; spec.trump = g; }
    if (spec.goal !== "allpass") spec.talon = [];
    if (active === "talon" && spec.goal !== "allpass") active = 0;
    drawEditor();
  });
  $("declarer").addEventListener("change", () => { spec.declarer = +$("declarer").value; });
  $("leader").addEventListener("change", () => { spec.leader = +$("leader").value; });
  $("mode").addEventListener("change", () => { spec.mode = $("mode").value; if (spec.mode === "unused") spec.talon = []; drawEditor(); });
  $("clear").addEventListener("click", () => { spec.hands = [[], [], []]; spec.talon = []; drawEditor(); });
  $("random").addEventListener("click", randomDeal);

  // ---------------------------------------------------------------- solving and playing (on the server)
  async function ask(body) {
    const r = await fetch("/api/study/board", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const out = await r.json().catch(() => ({}));
    if (r.status === 429) return { problems: [{ en: "busy", [PREF.lang]: t("The server is busy; try again in a few seconds.") }] };
    return out;
  }
  function showProblems(list) {
    const ul = $("problems"); ul.replaceChildren(...(list || []).map((p) => el("li", { text: S.words(p) })));
    if (list && list.length && !editing) { editing = true; drawEditor(); }
  }
  async function solve() {
    showProblems([]);
    const out = await ask({ position: { ...spec, leader: spec.talon.length ? 0 : spec.leader }, taken: [0, 0, 0] });
    if (out.problems) { showProblems(out.problems); return; }
    stack = [out]; editing = false; share(); draw();
  }
  async function play(card) {
    const now = stack[stack.length - 1];
    const out = await ask({ position: now.text, play: card, taken: now.taken });
    if (out.problems) { $("note").textContent = S.words(out.problems[0]); return; }
    out.played = card; out.by = now.to_play;
    stack.push(out); share(); draw();
  }
  async function open(text, taken) {
    const out = await ask({ position: text, taken });
    if (out.problems) { showProblems(out.problems); drawEditor(); return; }
    const p = out.position;
    spec = { hands: p.hands.map((h) => h.slice()), talon: p.talon.slice(), goal: p.goal, trump: p.trump === "NT" ? "NT" : p.trump,
      declarer: p.declarer, leader: p.leader, mode: p.mode };
    if (spec.goal !== "tricks") spec.trump = "♠";
    stack = [out]; editing = false; draw();
  }
  function share() {
    const now = stack[stack.length - 1];
    if (!now) return;
    let hash = "#pos=" + encodeURIComponent(now.text) + "&taken=" + now.taken.join(",");
    if (names) hash += "&names=" + encodeURIComponent(names.join(","));
    $("share").href = hash;
  }

  // ---------------------------------------------------------------- drawing
  function goalText(now) {
    const p = now.position;
    const focus = p.goal === "allpass" ? now.to_play : p.declarer;
    if (now.over) {
      return p.goal === "allpass" ? t("All the cards are played.") : t("All the cards are played: {name} took {n}.", { name: handName(p.declarer), n: tn("{n} trick", "{n} tricks", now.taken[p.declarer]) });
    }
    const n = tn("{n} trick", "{n} tricks", now.value);
    if (p.goal === "tricks") return t("{name} plays with trumps {trump}: with best play he takes {n}.", { name: handName(focus), trump: p.trump === "NT" ? t("no trumps").toLowerCase() : p.trump, n });
    if (p.goal === "misere") return t("{name} plays misère: with best play he takes {n}.", { name: handName(focus), n });
    return t("All-pass, each for himself: {name}, to move, takes {n} against the other two.", { name: handName(focus), n });
  }
  function badgeNote(now) {
    const p = now.position;
    if (p.goal === "tricks") return t("The number on a card: the declarer's tricks at the end of the deal if it is played, everybody playing his best after it.");
    if (p.goal === "misere") return t("The number on a card: the misère player's tricks at the end of the deal if it is played, everybody playing his best after it.");
    return t("The number on a card: the tricks of the player to move at the end, if he plays it and the other two play together against him.");
  }
  function draw() {
    drawEditor();
    const now = stack[stack.length - 1];
    document.querySelector(".stepper.actions").hidden = !now;  // nothing to go back to or share yet
    $("undo").disabled = stack.length < 2;
    $("restart").disabled = stack.length < 2;
    if (!now) {
      $("felt").replaceChildren(el("div", { class: "status", text: t("Lay out the cards, then press Solve.") }));
      $("note").textContent = ""; $("played").replaceChildren(); return;
    }
    const p = now.position;
    const legal = new Set(Object.keys(now.values));
    const badges = {};
    for (const [c, v] of Object.entries(now.values)) badges[c] = [String(v), now.best.includes(c) ? "best" : "bad"];
    const trick = p.trick.map((c, i) => [(p.talon.length ? 0 : p.leader + i) % 3, c]);
    if (p.talon.length) trick.unshift([-1, p.talon[0]]);
    const last = stack.length > 1 && !p.trick.length && now.completed.length ? now.completed : null;
    S.felt($("felt"), {
      seats: [0, 1, 2], bottom: p.goal === "allpass" ? 0 : p.declarer,
      seat: (s) => ({ name: handName(s), cards: p.hands[s], size: "mid", tricks: now.taken[s], acting: now.to_play === s && !now.over,
        tags: p.goal !== "allpass" && s === p.declarer ? [[p.goal === "misere" ? tp("call", "misere") : (p.trump === "NT" ? t("no trumps") : p.trump), "decl"]] : [],
        legal: now.to_play === s ? legal : null, badges: now.to_play === s ? badges : null, onCard: now.to_play === s ? play : null }),
      centre: { status: now.over ? goalText(now) : t("{name} to move", { name: handName(now.to_play) }), trick, last,
        talon: p.talon.slice(1), talonLabel: t("Talon") },
    });
    $("note").replaceChildren(el("b", { text: goalText(now) }), " ", el("span", { class: "note-basis", text: now.over ? "" : badgeNote(now) }));
    const list = $("played"); list.replaceChildren();
    stack.slice(1).forEach((h, i) => list.append(el("li", { class: i === stack.length - 2 ? "here" : "", onclick: () => { stack = stack.slice(0, i + 2); share(); draw(); } },
      el("span", { class: "n", text: String(i + 1) }), el("span", { class: "who", text: handName(h.by) }), el("span", { class: "what", text: cardLabel(h.played) }))));
  }
  $("solve").addEventListener("click", solve);
  $("undo").addEventListener("click", () => { if (stack.length > 1) { stack.pop(); share(); draw(); } });
  $("restart").addEventListener("click", () => { stack = stack.slice(0, 1); share(); draw(); });
  $("edit").addEventListener("click", () => { editing = true; drawEditor(); $("editor").scrollIntoView({ block: "nearest" }); });
  $("share").addEventListener("click", (e) => { e.preventDefault(); window.history.replaceState(null, "", $("share").getAttribute("href")); });

  (async function () {
    await PREF.start({ onLang: () => { document.title = t("Solver board") + " · " + t("Preferans"); draw(); } });
    document.title = t("Solver board") + " · " + t("Preferans");
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.get("names")) names = h.get("names").split(",").slice(0, 3);
    if (h.get("pos")) {
      const taken = (h.get("taken") || "0,0,0").split(",").map((x) => +x || 0);
      await open(h.get("pos"), taken);
    }
    draw();
  })();
})();
