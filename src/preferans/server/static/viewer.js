// The replay viewer (issue 27): a finished table (/study/game/{id}) or an uploaded record
// (/study/record/{id}), deal by deal, step by step, every hand open, each decision marked with
// what it cost in whists.  The server works out every state (the engine's replay step) and the
// analysis; this page only draws them.  #deal=3&step=17 opens a deal at a step (a link to share).
"use strict";
(function () {
  const { $, el, actText, cardSvg } = PREF;
  const { t, tn, tp } = I18N;
  const S = STUDY;
  const path = location.pathname.match(/^\/study\/(game|record)\/([\w-]+)/);
  const source = path ? (path[1] === "game" ? "tables/" : "records/") + path[2] : null;
  const api = "/api/study/" + source;
  let game = null, dealNo = 1, step = 0, deal = null, sheetAfter = true;
  const deals = {}, analysed = {};
  let progress = null, pollTimer = null;

  function names(seat) {
    if (!game) return "";
    if (seat < 0) return t("Talon");
    if (seat >= game.players.length) { const w = tp("seat", "dummy"); return w.charAt(0).toUpperCase() + w.slice(1); }  // stands as a name
    return game.players[seat];
  }
  function dealTitle(d) {
    const label = d.labels ? d.labels[PREF.lang] || d.labels.en : (d.sheet ? t("written by hand") : tp("deal kind", d.kind || "broken"));
    return t("Deal {n}", { n: d.number }) + ": " + label;
  }

  // ---------------------------------------------------------------- loading
  async function getJSON(url) {
    const r = await fetch(url);
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { const e = new Error(body.message || r.statusText); e.code = body.error; e.status = r.status; throw e; }
    return body;
  }
  function showMessage(title, text, link) {
    $("viewer").hidden = true; $("message").hidden = false;
    $("message-title").textContent = title; $("message-text").textContent = text;
    const a = $("message-link"); a.hidden = !link;
    if (link) { a.href = link[0]; a.textContent = link[1]; }
  }
  function failed(e) {
    if (e.code === "not_finished") showMessage(t("The game is still on"), t("The analysis opens when the pulka is over."), ["/t/" + path[2], t("Back to the table")]);
    else if (e.code === "players_only") showMessage(t("For the players only"), t("This table does not allow spectators: its record is for its players."));
    else if (e.status === 404) showMessage(t("No such game"), t("There is no game «{id}» on this server.", { id: path ? path[2] : "" }));
    else if (e.status === 429) { setTimeout(start, 3000); }
    else showMessage(t("Error"), e.message);
  }
  async function loadDeal(n) {
    if (!deals[n]) deals[n] = await getJSON(api + "/deals/" + n);
    return deals[n];
  }
  let wanted = 0;  // the deal asked for last: a slower earlier load must not draw over it
  async function go(n, s, keepHash) {
    const d = game.deals[n - 1];
    wanted = n;
    if (!d || !d.steps) {
      dealNo = n; deal = null; step = 0;
      if (!keepHash) history.replaceState(null, "", "#deal=" + dealNo);
      drawAll(); return;
    }
    let loaded;
    try { loaded = await loadDeal(n); } catch (e) { if (wanted === n) failed(e); return; }
    if (wanted !== n) return;
    deal = loaded; dealNo = n;
    step = Math.max(0, Math.min(s === "end" ? deal.states.length - 1 : s, deal.states.length - 1));
    if (!keepHash) history.replaceState(null, "", "#deal=" + dealNo + "&step=" + step);
    askAnalysis(dealNo);
    drawAll();
  }
  function move(to) { if (deal) { step = Math.max(0, Math.min(to, deal.states.length - 1)); history.replaceState(null, "", "#deal=" + dealNo + "&step=" + step); drawAll(); } }

  // ---------------------------------------------------------------- the analysis (worked out on the server, deal by deal)
  async function poll() {
    clearTimeout(pollTimer);
    try { progress = await getJSON(api + "/analysis"); }
    catch (e) {
      progress = { status: e.status === 429 ? "busy" : "failed", error: e.message };
      drawAnalysis();
      if (e.status === 429) pollTimer = setTimeout(poll, 4000);
      return;
    }
    if (progress.ready && progress.ready.includes(dealNo) && !analysed[dealNo]) await askAnalysis(dealNo);
    drawAnalysis();
    if (progress.status === "running") pollTimer = setTimeout(poll, 1200);
  }
  async function askAnalysis(n) {
    if (analysed[n]) return;
    try {
      const r = await getJSON(api + "/analysis?deal=" + n);
      if (r.deal) { analysed[n] = r.deal; if (n === dealNo) drawAll(); }
    } catch (e) { /* the progress poll reports it */ }
  }
  function decisionAt(index) {
    const a = analysed[dealNo];
    return a ? a.decisions.find((x) => x.move === index) : null;
  }
  function markOf(x) {
    if (!x) return null;
    if (!x.priced) return ["·", "none"];
    return [S.mark(x.cost), x.mistake ? "bad" : (x.cost < 0.05 ? "best" : "")];
  }

  // ---------------------------------------------------------------- drawing
  function statusText(st) {
    let head = t("Deal {n}", { n: dealNo }) + " · ";
    if (st.phase === "over") return head + (deal.result && deal.result.labels ? deal.result.labels[PREF.lang] || deal.result.labels.en : tp("phase", "over"));
    const allPass = st.phase === "play" && st.declarer === null;
    head += allPass ? tp("deal kind", "all_pass") : tp("phase", st.phase);
    if (st.contract) head += " · " + actText(st.contract) + " (" + names(st.declarer) + ")";
    const who = st.phase === "play" && st.to_play !== null ? st.to_play : st.to_act;
    if (who !== null && who !== undefined) head += " · " + t("{name} to move", { name: names(who) });
    return head;
  }
  function drawFelt() {
    const st = deal.states[step];
    const seats = []; for (let s = 0; s < (deal.players === 2 ? 3 : deal.players); s++) seats.push(s);
    const next = decisionAt(step);  // the decision taken at this step (the move that follows)
    const badges = {}, legal = new Set();
    if (next && next.kind === "card" && next.priced) {
      next.options.forEach(([choice, cost]) => {
        const c = choice[0]; legal.add(c);
        const m = S.mark(cost);
        badges[c] = [m, (cost < 0.05 ? "best" : (cost > 0 ? "bad" : "")) + (c === next.chosen[0] ? " chosen" : "")];
      });
    }
    const mover = st.phase === "play" ? st.to_play : null;
    const shown = st.phase === "play" || st.phase === "over";
    S.felt($("felt"), {
      seats, bottom: deal.active[0],
      seat: (s) => {
        const out = deal.players === 4 && s === deal.dealer;
        const tags = [];
        if (s === deal.dealer) tags.push([out ? t("dealer, sits out") : t("dealer"), "dealer"]);
        if (st.declarer === s && st.contract) tags.push([actText(st.contract), "decl"]);
        const cards = st.hands[String(s)] || [];
        return { name: names(s), tags, cards, size: "mid",
          call: shown ? null : (st.calls || {})[String(s)],
          tricks: shown && deal.active.includes(s) ? st.tricks_won[s] : (shown && out && st.tricks_won[s] ? st.tricks_won[s] : null),
          acting: (st.phase === "play" ? st.to_play : st.to_act) === s,
          legal: mover === s && legal.size ? legal : null, badges: mover === s ? badges : null,
          empty: out ? t("sits out") : "" };
      },
      centre: { status: statusText(st), talon: st.talon, trick: st.trick, last: st.last ? st.last.cards : null,
        extra: asideCards(st) },
    });
  }
  function asideCards(st) {
    // The discard, once made, lies aside face down at the table; the viewer shows it.
    if (!st.discard.length || st.phase === "discard") return null;
    const box = el("div", { class: "aside-cards" }, el("span", { class: "label", text: t("The discard") }));
    st.discard.forEach((c) => box.append(cardSvg(c, "small")));
    return box;
  }
  function drawStepper() {
    const n = deal.states.length - 1;
    const slider = $("slider"); slider.max = n; slider.value = step;
    $("first").disabled = $("prev").disabled = step === 0;
    $("next").disabled = $("last").disabled = step === n;
    $("step-text").textContent = t("Step {k} of {n}", { k: step, n });
  }
  function drawNote() {
    const box = $("note"); box.replaceChildren();
    if (step === 0) {
      box.append(el("span", { text: t("Deal {n}: {name} deals.", { n: dealNo, name: names(deal.dealer) }) + " " + t("Keys: ← → step by step, Home and End.") }));
      return;
    }
    const m = deal.moves[step - 1];
    box.append(el("b", { text: names(m.seat) + ": " + actText(m.action) }));
    const x = decisionAt(step - 1);
    if (!x && !analysed[dealNo]) { box.append(" ", el("span", { class: "note-basis", text: t("the analysis is on its way") })); return; }
    if (!x) {
      // A card in play without a decision: it was the only card the player could play.
      if (m.stage === "play" && !analysed[dealNo].skipped) box.append(" — ", el("span", { class: "note-basis", text: t("the only card that could be played") }));
      return;
    }
    const kind = x.kind;
    if (kind === "contract") box.replaceChildren(el("b", { text: names(x.player) + ": " + S.choiceText(kind, x.chosen) }));
    if (!x.priced) { box.append(" — ", el("span", { class: "mark none", text: t("not priced") })); return; }
    if (x.mistake) {
      box.append(" — ", el("span", { class: "cost bad", text: S.loss(x.cost) }), " ", el("span", { class: "note-basis", text: S.basisText(x.basis) }));
      if (kind === "card" && x.tricks) box.append(" ", el("span", { text: "(" + tn("{n} trick", "{n} tricks", x.tricks) + ")" }));
      box.append(el("div", { class: "options", text: t("Best: {best}", { best: x.best.slice(0, 4).map((b) => S.choiceText(kind, b)).join("; ") + (x.best.length > 4 ? " …" : "") }) }));
    } else {
      box.append(" — ", el("span", { class: "cost best", text: x.cost > 0.05 ? t("within the sampling's noise ({loss})", { loss: S.loss(x.cost) }) : t("a best choice") }),
        " ", el("span", { class: "note-basis", text: S.basisText(x.basis) }));
    }
  }
  const STAGES = ["auction", "discard", "contract", "whist", "defence", "play", "redraw", "report", "claim"];
  function drawMoves() {
    const list = $("moves"); list.replaceChildren();
    let stage = null, trick = 0, inTrick = 0;
    deal.moves.forEach((m, i) => {
      const st = STAGES.includes(m.stage) ? m.stage : "play";
      if (st !== stage) { stage = st; list.append(el("li", { class: "head", text: tp("stage", st) })); }
      let what = actText(m.action);
      if (st === "play" && m.action.length <= 3 && "♠♣♦♥".includes(m.action.slice(-1))) {
        if (inTrick === 0) trick++;
        inTrick = (inTrick + 1) % 3;
        what = (inTrick === 1 ? trick + ". " : "") + what;
      }
      const mk = markOf(decisionAt(i));
      const li = el("li", { class: step === i + 1 ? "here" : "", "data-step": i + 1, onclick: () => move(i + 1) },
        el("span", { class: "n", text: String(i + 1) }),
        el("span", { class: "who", text: names(m.seat) + (m.by !== undefined ? " (" + t("by {name}", { name: names(m.by) }) + ")" : "") }),
        el("span", { class: "what", text: what }));
      if (mk) li.append(el("span", { class: "mark " + mk[1], text: mk[0] }));
      list.append(li);
    });
    // Only the list scrolls to the step (never the page: the player keeps his place on it).
    const here = list.querySelector(".here");
    if (here && list.scrollHeight > list.clientHeight + 1) list.scrollTop = here.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  function drawAnalysis() {
    const box = $("analysis"); box.replaceChildren();
    if (!progress) { box.append(el("p", { class: "muted", text: t("Starting the analysis…") })); return; }
    if (progress.status === "busy") { box.append(el("p", { class: "muted", text: t("The server is busy; the analysis starts in a few seconds.") })); return; }
    if (progress.status === "failed") { box.append(el("p", { class: "error", text: t("The analysis failed: {why}", { why: progress.error || "" }) })); return; }
    const done = progress.done || 0, total = progress.total || 1;
    if (progress.status === "running") {
      box.append(el("p", { text: t("Working out the analysis: {done} of {total} deals", { done, total }) }),
        el("div", { class: "progress" }, el("div", { style: "width:" + Math.round(100 * done / total) + "%" })));
    }
    const a = analysed[dealNo];
    if (a) {
      const mistakes = a.decisions.filter((x) => x.mistake);
      box.append(el("p", { text: mistakes.length ? tn("This deal: {n} costly decision", "This deal: {n} costly decisions", mistakes.length) : t("This deal: no costly decision") }));
      const ul = el("ul", { class: "biggest" });
      mistakes.sort((x, y) => y.cost - x.cost).slice(0, 6).forEach((x) => ul.append(el("li", {},
        el("a", { href: "#deal=" + dealNo + "&step=" + (x.move + 1), onclick: (e) => { e.preventDefault(); move(x.move + 1); } },
          names(x.player) + ": " + S.choiceText(x.kind, x.chosen)), " ", el("span", { class: "cost bad", text: S.loss(x.cost) }))));
      if (mistakes.length) box.append(ul);
      if (a.skipped) box.append(el("p", { class: "muted", text: t("not analysed: {why}", { why: t(a.skipped) }) }));
    } else if (progress.status === "done" && game.deals[dealNo - 1] && !game.deals[dealNo - 1].complete
               && !game.deals[dealNo - 1].sheet) {  // lines written by hand: no deal to analyse
      box.append(el("p", { class: "muted", text: t("not analysed: {why}", { why: t("some cards are unknown (??)") }) }));
    }
    box.append(el("p", { class: "note-basis", text: t("Cards, the discard and the contract are priced with all hands open; calls and whist/pass on average over the layouts the player could not see.") }));
    drawSummary();
  }
  function drawSummary() {
    const box = $("summary"), wrap = $("summary-box");
    wrap.hidden = !(progress && progress.summary);
    if (wrap.hidden) return;
    box.replaceChildren();
    const table = el("table", { class: "summary" }, el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Mistakes") }), el("th", { text: t("Lost") })));
    progress.summary.forEach((s) => table.append(el("tr", {}, el("td", { text: s.player }), el("td", { class: "num", text: t("{n} of {total}", { n: s.mistakes, total: s.decisions }) }),
      el("td", { class: "num", text: S.loss(s.cost) }))));
    box.append(table);
    progress.summary.forEach((s) => {
      if (!s.biggest.length) return;
      box.append(el("div", { class: "note-basis", text: t("{name}: the costliest", { name: s.player }) }));
      const ul = el("ul", { class: "biggest" });
      s.biggest.forEach((x) => ul.append(el("li", {}, el("a", { href: "#deal=" + x.deal + "&step=" + (x.move + 1),
        onclick: (e) => { e.preventDefault(); go(x.deal, x.move + 1); } }, t("Deal {n}", { n: x.deal }) + ": " + S.choiceText(x.kind, x.chosen)),
        " ", el("span", { class: "cost bad", text: S.loss(x.cost) }))));
      box.append(ul);
    });
  }
  function drawSheet() {
    const box = $("sheet-box");
    box.hidden = !game.scored;
    if (!game.scored) return;
    const after = sheetAfter ? dealNo : dealNo - 1;
    $("sheet-before").setAttribute("aria-pressed", String(!sheetAfter));
    $("sheet-after").setAttribute("aria-pressed", String(sheetAfter));
    const url = api + "/sheet.svg?after=" + after + "&lang=" + PREF.lang;
    if ($("sheet").getAttribute("src") !== url) { $("sheet").src = url; $("sheet-link").href = url; }  // a click: as big as the window
  }
  function drawHead() {
    const h = game.headers || {};
    const who = game.players.join(", ");
    // The file's name without its extension (a name the player gave, in his language).
    const file = (game.name || "").replace(/\.(prf|json|txt)$/i, "");
    $("title").textContent = [h.event, who, tp("preset", game.rules), file].filter(Boolean).join(" · ");
    const pick = $("deal-pick");
    pick.replaceChildren(...game.deals.map((d) => el("option", { value: d.number, text: dealTitle(d) })));
    pick.value = String(dealNo);
    document.title = t("Analysis") + " · " + t("Preferans");
  }
  function drawAll() {
    drawHead(); drawSheet(); drawAnalysis();
    // An entry without steps (lines written on the sheet by hand, a deal that did not replay)
    // has nothing to step through or to open on the solver board: no controls of another deal.
    document.querySelector(".stepper").hidden = !deal;
    if (!deal) {
      $("to-board").hidden = true;
      $("felt").replaceChildren(el("div", { class: "status", text: dealTitle(game.deals[dealNo - 1]) }));
      $("moves").replaceChildren(); $("note").replaceChildren(); return;
    }
    drawFelt(); drawStepper(); drawNote(); drawMoves();
    const st = deal.states[step];
    const board = $("to-board");
    board.hidden = !st.position;
    if (st.position) {
      const active = st.active;
      board.href = "/study/board#pos=" + encodeURIComponent(st.position) + "&names=" + encodeURIComponent(active.map(names).join(","))
        + "&taken=" + active.map((s) => st.tricks_won[s]).join(",");
    }
  }
  function labels() {
    $("first").setAttribute("aria-label", t("To the start"));
    $("prev").setAttribute("aria-label", t("Back"));
    $("next").setAttribute("aria-label", t("Forward"));
    $("last").setAttribute("aria-label", t("To the end"));
    $("slider").setAttribute("aria-label", t("Step"));
    $("deal-pick").setAttribute("aria-label", t("Deal"));
    $("sheet").alt = t("Score sheet");
    $("sheet-link").title = t("Open in a new tab");
  }

  // ---------------------------------------------------------------- controls
  $("first").addEventListener("click", () => move(0));
  $("prev").addEventListener("click", () => move(step - 1));
  $("next").addEventListener("click", () => move(step + 1));
  $("last").addEventListener("click", () => move(deal ? deal.states.length - 1 : 0));
  $("slider").addEventListener("input", () => move(+$("slider").value));
  $("deal-pick").addEventListener("change", () => go(+$("deal-pick").value, 0));
  $("sheet-before").addEventListener("click", () => { sheetAfter = false; drawSheet(); });
  $("sheet-after").addEventListener("click", () => { sheetAfter = true; drawSheet(); });
  document.addEventListener("keydown", (e) => {
    if (!deal || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: deal.states.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault(); move(to);
  });
  window.addEventListener("hashchange", () => {
    const h = new URLSearchParams(location.hash.slice(1));
    const n = +(h.get("deal") || dealNo), s = +(h.get("step") || 0);
    if (n !== dealNo) go(n, s, true); else if (s !== step) { step = s; drawAll(); }
  });

  async function start() {
    try { game = await getJSON(api); } catch (e) { failed(e); return; }
    $("message").hidden = true; $("viewer").hidden = false;
    const h = new URLSearchParams(location.hash.slice(1));
    const n = Math.max(1, Math.min(+(h.get("deal") || 1), game.deals.length));
    await go(n, +(h.get("step") || 0));
    poll();
    // The positions of this game where one card decides, as puzzles (one a deal at most).
    getJSON(api + "/puzzles").then((p) => { puzzles = p.count; drawPuzzlesLink(); }).catch(() => {});
  }
  let puzzles = 0;
  function drawPuzzlesLink() {
    const a = $("to-puzzles");
    a.hidden = !puzzles;
    a.href = location.pathname.replace(/\/$/, "") + "/puzzles";
    a.textContent = tn("{n} puzzle from this game", "{n} puzzles from this game", puzzles);
  }
  (async function () {
    await PREF.start({ onLang: () => { labels(); drawPuzzlesLink(); if (game) drawAll(); } });
    labels();
    if (!source) { showMessage(t("No such game"), ""); return; }
    start();
  })();
})();
