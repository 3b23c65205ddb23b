// What the study pages share (issue 27): a table drawn with every hand open — the viewer, the
// solver board and the puzzles all draw one — and whists written as players write them.
// Loaded after common.js; the pages only draw what the server worked out (never a rule here).
"use strict";
window.STUDY = (function () {
  const { el, cardSvg, sortHand, actText, cardLabel } = PREF;
  const { t, tn, tp } = I18N;

  // Whists as players write them: whole where the price is whole, else one decimal with the
  // language's own decimal mark («10,7 виста»), a minus for a loss; never a fraction like 32/3.
  function whists(x) {
    const v = Math.round(x * 10) / 10;
    const sign = v < 0 ? "−" : "";
    const a = Math.abs(v);
    if (a === Math.round(a)) return sign + tn("{n} whist", "{n} whists", a);
    const number = a.toFixed(1).replace(".", PREF.lang === "ru" ? "," : ".");
    return sign + t("{x} whists", { x: number });
  }
  function loss(cost) { return Math.round(cost * 10) === 0 ? whists(0) : whists(-cost); }
  // A short mark for a badge: "−10,7", "✓" for a best choice.
  function mark(cost) {
    const v = Math.round(cost * 10) / 10;
    if (v === 0) return "✓";
    const s = (Number.isInteger(v) ? String(v) : v.toFixed(1).replace(".", PREF.lang === "ru" ? "," : "."));
    return "−" + s;
  }
  function basisText(basis) {
    return basis === "open" ? t("with all hands open") : t("on average over the layouts");
  }
  // A choice as the player reads it: a call, a card, or a discard with the contract.
  function choiceText(kind, choice) {
    if (kind === "contract") {
      const cards = choice.slice(0, 2).map(cardLabel).join(" ");
      return choice.length > 2 ? t("discard {cards}, contract {contract}", { cards, contract: actText(choice[2]) })
        : t("discard {cards}", { cards });
    }
    const text = choice.map((c) => actText(c)).join(", ");
    // «пас» is said in the auction and when whisting: the whisting one says so (the lists mix both).
    return kind === "whist" ? t("{call} when whisting", { call: text }) : text;
  }

  // The seats around the felt, clockwise from the bottom one: [bottom, left, (top), right].
  function places(seats, bottom) {
    const n = seats.length, order = [];
    const start = Math.max(0, seats.indexOf(bottom));
    for (let k = 0; k < n; k++) order.push(seats[(start + k) % n]);
    const names = n === 3 ? ["bottom", "left", "right"] : ["bottom", "left", "top", "right"];
    const where = {};
    order.forEach((s, i) => { where[s] = names[i]; });
    return where;
  }

  // One seat's box: its name line (tags, the last call, tricks) and its open hand.
  // opts: {name, tags: [[text, cls]], call, tricks, cards, acting, legal: Set, badges: {card: [text, cls]},
  //        onCard(card), size: "small" | "mid"}
  function seatBox(where, opts) {
    const box = el("div", { class: "sseat " + where + (opts.acting ? " acting" : ""), "data-where": where });
    const line = el("div", { class: "pline" }, el("b", { text: opts.name }));
    (opts.tags || []).forEach(([text, cls]) => line.append(el("span", { class: "tag " + (cls || ""), text })));
    if (opts.tricks !== null && opts.tricks !== undefined) line.append(el("span", { class: "tricks", text: tn("{n} trick", "{n} tricks", opts.tricks) }));
    if (opts.call) line.append(el("span", { class: "bubble", text: actText(opts.call) }));
    box.append(line);
    const row = el("div", { class: "shand" });
    sortHand(opts.cards || []).forEach((c) => {
      const legal = opts.legal && opts.legal.has(c);
      const holder = el("span", { class: "scard" + (legal ? " legal" : "") + (opts.legal && !legal ? " dim" : "") });
      const svg = cardSvg(c, opts.size || "mid");
      holder.append(svg);
      const badge = opts.badges && opts.badges[c];
      if (badge) holder.append(el("span", { class: "badge " + (badge[1] || ""), text: badge[0] }));
      if (legal && opts.onCard) {
        holder.setAttribute("tabindex", "0"); holder.setAttribute("role", "button");
        holder.setAttribute("aria-label", cardLabel(c) + (badge ? " " + badge[0] : ""));
        holder.addEventListener("click", () => opts.onCard(c));
        holder.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onCard(c); } });
      }
      row.append(holder);
    });
    if (!(opts.cards || []).length && opts.empty) row.append(el("span", { class: "muted", text: opts.empty }));
    box.append(row);
    return box;
  }

  // The middle of the felt: the talon (and what lies aside), the trick with each card at its
  // player's side, the last trick faded.
  function centre(opts) {
    const mid = el("div", { class: "scentre" });
    if (opts.status) mid.append(el("div", { class: "status", role: "status", text: opts.status }));
    if (opts.talon && opts.talon.length) {
      const tal = el("div", { class: "talon" }, el("span", { class: "label", text: opts.talonLabel || t("Talon") }));
      opts.talon.forEach((c) => tal.append(cardSvg(c, "small")));
      mid.append(tal);
    }
    const trick = el("div", { class: "trick" });
    let cards = opts.trick || [], faded = false;
    if (!cards.length && opts.last) { cards = opts.last; faded = true; }
    cards.forEach(([s, c]) => trick.append(cardSvg(c, "in-trick " + (s < 0 ? "tl" : (opts.where[s] || "top")) + (faded ? " faded" : ""))));
    if (faded) trick.append(el("span", { class: "last-label", text: t("last trick") }));
    if (cards.length) mid.append(trick);
    if (opts.extra) mid.append(opts.extra);
    return mid;
  }

  // The whole felt.  opts: {seats: [seat…], bottom, seat(s) → seatBox options, centre options}
  function felt(container, opts) {
    const where = places(opts.seats, opts.bottom);
    container.replaceChildren();
    container.classList.add("sfelt", "n" + opts.seats.length);
    opts.seats.forEach((s) => container.append(seatBox(where[s], opts.seat(s))));
    container.append(centre({ ...opts.centre, where }));
  }

  // "First hand" as a name (capitalised: it stands where a player's name would).
  function handWord(i) { const w = [t("first hand"), t("second hand"), t("third hand")][i]; return w.charAt(0).toUpperCase() + w.slice(1); }

  // Errors the server returns in both languages ({en, ru}).
  function words(texts) { return texts[PREF.lang] || texts.en; }

  return { whists, loss, mark, basisText, choiceText, places, seatBox, centre, felt, handWord, words };
})();
