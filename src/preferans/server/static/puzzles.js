// Puzzles (issue 27): positions from played deals where one card decides, one at a time.  The
// server keeps the answer until a card is chosen, then says whether it was the one and shows every
// card's value and the solver's line (the set was made and verified by `preferans puzzles`).
"use strict";
(function () {
  const { $, el, actText, SUITS, cardLabel } = PREF;
  const { t, tn, tp } = I18N;
  const S = STUDY;
  let number = 1, count = 0, puzzle = null, verdict = null;
  // /study/puzzles: the shipped set; /study/game/{id}/puzzles (or record/{id}): one game's own.
  const own = location.pathname.match(/^\/study\/(game|record)\/([\w-]+)\/puzzles/);
  const api = own ? "/api/study/" + (own[1] === "game" ? "tables/" : "records/") + own[2] + "/puzzles" : "/api/study/puzzles";

  function handName(i) { return puzzle && puzzle.names && puzzle.names[i] ? puzzle.names[i] : S.handWord(i); }
  function contractText(p) {
    if (p.contract === "all-pass") return tp("deal kind", "all_pass");
    return actText(p.contract);
  }
  function goalSentence(p) {
    const mover = handName(p.to_play);
    if (p.contract === "all-pass") return t("All-pass: every player takes as few tricks as he can. {name} to move: find the card that takes fewest.", { name: mover });
    const decl = handName(p.declarer);
    if (p.contract === "misere") {
      return p.to_play === p.declarer ? t("{name} plays misère and is to move: find the card that gives away fewest tricks.", { name: decl })
        : t("{decl} plays misère; {name} defends and is to move: find the card that gives him most tricks.", { decl, name: mover });
    }
    return p.to_play === p.declarer ? t("{name} plays {contract} and is to move: find the card that takes most tricks.", { name: decl, contract: contractText(p) })
      : t("{decl} plays {contract}; {name} defends and is to move: find the card that holds him to fewest tricks.", { decl, contract: contractText(p), name: mover });
  }
  async function load(n) {
    const r = await fetch(api + "/" + n);
    if (!r.ok) { $("task").textContent = t("No puzzles here."); return; }
    puzzle = await r.json(); number = puzzle.number; count = puzzle.count; verdict = null;
    history.replaceState(null, "", "#" + number);
    draw();
  }
  async function answer(card) {
    if (verdict) return;
    const r = await fetch(api + "/" + number, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ card }) });
    if (!r.ok) return;
    verdict = await r.json();
    draw();
    $("answer-box").scrollIntoView({ block: "nearest" });  // on a phone it is under the cards
  }
  function draw() {
    if (!puzzle) return;
    const p = puzzle.position;
    $("title").textContent = own ? t("Puzzle {n} of {count} from this game", { n: number, count })
      : t("Puzzle {n} of {count}", { n: number, count });
    $("prev").disabled = number <= 1; $("next").disabled = number >= count;
    const legal = new Set(puzzle.legal);
    const badges = {};
    if (verdict) for (const [c, v] of Object.entries(verdict.values)) badges[c] = [String(v), (c === verdict.best ? "best" : "bad") + (c === verdict.card ? " chosen" : "")];
    const trick = p.trick.map((c, i) => [(p.talon.length ? 0 : p.leader + i) % 3, c]);
    if (p.talon.length) trick.unshift([-1, p.talon[0]]);
    const bottom = p.goal === "allpass" ? puzzle.to_play : puzzle.declarer;
    S.felt($("felt"), {
      seats: [0, 1, 2], bottom,
      seat: (s) => ({ name: handName(s), cards: p.hands[s], size: "mid", tricks: puzzle.taken[s], acting: puzzle.to_play === s,
        tags: puzzle.declarer === s ? [[puzzle.contract === "misere" ? tp("call", "misere") : contractText(puzzle), "decl"]] : [],
        legal: puzzle.to_play === s ? legal : null, badges: puzzle.to_play === s ? badges : null,
        onCard: puzzle.to_play === s && !verdict ? answer : null }),
      centre: { status: verdict ? (verdict.right ? t("Right!") : t("Not this one.")) : t("{name} to move", { name: handName(puzzle.to_play) }),
        trick, talon: p.talon.slice(1) },
    });
    const task = $("task"); task.replaceChildren(el("p", { text: goalSentence(puzzle) }),
      el("p", { class: "muted", text: t("Trick {n}. Tricks so far: {list}.", { n: 11 - Math.max(...p.hands.map((h) => h.length)),
        list: [0, 1, 2].map((s) => handName(s) + " " + puzzle.taken[s]).join(", ") }) }),
      el("p", { class: "note-basis", text: t("Every hand is open; the solver proved one card better than every other by at least a trick.") }));
    $("answer-box").hidden = !verdict;
    if (!verdict) return;
    const box = $("answer"); box.replaceChildren();
    box.append(el("p", { class: "verdict " + (verdict.right ? "right" : "wrong"), text: verdict.right ? t("Right: {card}!", { card: cardLabel(verdict.best) }) : t("The card was {card}.", { card: cardLabel(verdict.best) }) }));
    const focus = puzzle.contract === "all-pass" ? puzzle.to_play : puzzle.declarer;
    box.append(el("p", { text: t("The numbers on the cards: the tricks {name} ends with after each, with best play after it.", { name: handName(focus) }) }));
    const pairs = Object.entries(verdict.values).sort((a, b) => (a[0] === verdict.best ? -1 : b[0] === verdict.best ? 1 : 0));
    box.append(el("p", { text: pairs.map(([c, v]) => cardLabel(c) + " → " + tn("{n} trick", "{n} tricks", v)).join("; ") }));
    box.append(el("h4", { text: t("The solver's line") }));
    const line = el("p", { class: "line" });
    verdict.line.forEach((c, i) => { line.append(el("span", { class: "tc s" + SUITS.indexOf(c.slice(-1)), text: cardLabel(c), "data-card": c }), " "); });
    box.append(line);
  }
  $("prev").addEventListener("click", () => load(number - 1));
  $("next").addEventListener("click", () => load(number + 1));
  (async function () {
    await PREF.start({ onLang: () => { document.title = t("Puzzles") + " · " + t("Preferans"); draw(); } });
    document.title = t("Puzzles") + " · " + t("Preferans");
    if (own) {  // back to the game these positions come from
      const back = $("back-to-game");
      back.hidden = false; back.href = "/study/" + own[1] + "/" + own[2];
    }
    const n = parseInt(location.hash.slice(1), 10);
    load(n > 0 ? n : 1);
  })();
})();
