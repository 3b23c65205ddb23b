// What every page of the browser client shares: the chosen language, the top bar (brand, the
// pages, the language button), building elements, drawing cards from the sprite, and the names
// of calls.  Loaded after i18n.js and before the page's own script; a page calls
// `await PREF.start({ onLang })` once, then draws itself.
"use strict";
window.PREF = (function () {
  const SUITS = ["♠", "♣", "♦", "♥"];
  const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  const STRAINS = ["♠", "♣", "♦", "♥", "NT"];
  const SVG = "http://www.w3.org/2000/svg";
  const { t, tp } = I18N;
  // The pages of the top bar: [path, its name].  A page that is not listed has no tab (a table's page).
  const PAGES = [["/", () => t("Play")], ["/ratings", () => t("Ratings")], ["/match", () => t("Duplicate")]];
  const state = { account: null, lang: localStorage.getItem("pref_lang") || ((navigator.language || "en").startsWith("ru") ? "ru" : "en") };
  const langListeners = [];
  // The rank letters cards are shown in: "ru" Т К Д В (as Russian packs and books print them), "en" A K Q J.
  // A player's own setting (localStorage pref_ranks); unset, it follows the language.
  const RANK_LETTERS = { ru: { J: "В", Q: "Д", K: "К", A: "Т" }, en: { J: "J", Q: "Q", K: "K", A: "A" } };
  function ranks() { const r = localStorage.getItem("pref_ranks"); return r === "ru" || r === "en" ? r : (state.lang === "ru" ? "ru" : "en"); }
  const $ = (id) => document.getElementById(id);

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
  // Cards are written "10♥", "A♠"; ids 0–31 are suit * 8 + rank, as the engine numbers them.
  function cardId(text) { return SUITS.indexOf(text.slice(-1)) * 8 + RANKS.indexOf(text.slice(0, -1)); }
  function cardText(id) { return RANKS[id & 7] + SUITS[id >> 3]; }
  function sortHand(cards) {
    // Suit order ♠ ♣ ♦ ♥, high to low, as format_hand prints.
    return cards.slice().sort((a, b) => { const x = cardId(a), y = cardId(b);
      return (x >> 3) - (y >> 3) || (y & 7) - (x & 7); });
  }
  function suitClass(text) { const i = SUITS.indexOf(text.slice(-1)); return i < 0 ? "nt" : String(i); }
  // A card's text as the player reads it: "A♠" → "Т♠" with the Russian letters.
  function cardLabel(text) { const r = text.slice(0, -1); return (RANK_LETTERS[ranks()][r] || r) + text.slice(-1); }
  // Every card in a text (an engine's reason, a hand "♠A K 10") in the player's rank letters (cards.with_ranks).
  function rankText(text) {
    if (ranks() !== "ru" || !text) return text;
    const ru = (s) => s.replace(/[JQKA]/g, (c) => RANK_LETTERS.ru[c]);
    return text.replace(/(^|[^\w♠♣♦♥])((?:[7-9]|10|[AKQJ])[♠♣♦♥])/g, (m, pre, card) => pre + ru(card))
      .replace(/[♠♣♦♥](?:10|[7-9AKQJ])(?![\w♠♣♦♥])(?: (?:10|[7-9AKQJ])(?![\w♠♣♦♥]))*/g, ru);
  }
  // A card drawn from the sprite (/cards/sprite.svg, loaded once by start()): nothing to load, so no blank flash.
  function cardSvg(text, cls) {
    const s = document.createElementNS(SVG, "svg");
    s.setAttribute("class", "card " + (cls || ""));
    s.setAttribute("viewBox", "0 0 60 90");
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", text ? cardLabel(text) : "?");
    if (text) s.dataset.card = text;
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#card-" + (text ? cardId(text) : "back"));
    s.append(use);
    return s;
  }
  function actText(text) {
    // An action's name as the player reads it (preferans.i18n.call_name): calls in the catalog's
    // context "call", NT → БК in Russian, cards and suit bids as they are.
    if (text.startsWith("dark ")) return tp("call", "dark {call}", { call: actText(text.slice(5)) });
    if (text.startsWith("!out-of-turn ")) return tp("call", "out of turn: {call}", { call: actText(text.slice(13)) });
    let m = text.match(/^claim (\d+)( proven)?$/);  // a claim of N of the remaining tricks (proved by the solver)
    if (m) return m[2] ? I18N.tnp("call", "claim of {n} trick (proved)", "claim of {n} tricks (proved)", +m[1])
      : I18N.tnp("call", "claim of {n} trick", "claim of {n} tricks", +m[1]);
    m = text.match(/^(\d+)-no-talon$/);
    if (m) return tp("call", "{level} without the talon", { level: m[1] });
    m = text.match(/^(\d+)(NT|♠|♣|♦|♥)$/);
    if (m) return m[1] + (m[2] === "NT" ? tp("strain", "NT") : m[2]);
    if (text.length <= 3 && "♠♣♦♥".includes(text.slice(-1))) return cardLabel(text);
    return tp("call", text);
  }
  // Every element marked data-i18n shows its English text (the message id) in the chosen language.
  function applyI18n(root) {
    document.documentElement.lang = state.lang;
    (root || document).querySelectorAll("[data-i18n]").forEach((e) => {
      if (!e.dataset.msgid) e.dataset.msgid = e.textContent.trim();
      e.textContent = t(e.dataset.msgid);
    });
    (root || document).querySelectorAll("[data-i18n-placeholder]").forEach((e) => {
      e.placeholder = t(e.dataset.i18nPlaceholder);
    });
    const button = $("lang");
    // The button names the language the page speaks, in its own words («Рус», "Eng": a Russian page shows
    // no Latin word); a click switches to the other, which its tooltip names.
    if (button) { button.textContent = state.lang === "ru" ? "Рус" : "Eng"; button.setAttribute("aria-label", t("language"));
      button.title = state.lang === "ru" ? "English" : "Русский"; }
    drawNav();
    drawAccount();
  }
  // The account area of the top bar: the signed-in name (his profile) and «sign out», or «sign in».
  function drawAccount() {
    const bar = document.querySelector(".topbar");
    if (!bar) return;
    let box = $("account");
    if (!box) { box = el("span", { id: "account", class: "account" }); bar.insertBefore(box, $("lang")); }
    const a = state.account;
    if (a) {
      box.replaceChildren(el("a", { href: "/u/" + encodeURIComponent(a.name), id: "me", class: "me-link", text: a.name }),
        el("button", { type: "button", id: "sign-out", class: "topbar-button", onclick: signOut }, t("Sign out")));
    } else {
      const next = location.pathname === "/account" ? "" : "?next=" + encodeURIComponent(location.pathname + location.search);
      box.replaceChildren(el("a", { href: "/account" + next, id: "sign-in", class: "topbar-button", text: t("Sign in") }));
    }
  }
  async function signOut() {
    await fetch("/api/account/signout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    location.reload();
  }
  function drawNav() {
    const nav = $("nav");
    if (!nav) return;
    const here = location.pathname;
    nav.replaceChildren(...PAGES.map(([path, name]) => el("a", { href: path, text: name(),
      "aria-current": (path === "/" ? here === "/" : here.startsWith(path)) ? "page" : null })));
    nav.hidden = PAGES.length < 2;
  }
  // Called (after the new catalog is loaded and the marked elements redrawn) when the player switches language.
  function onLang(callback) { langListeners.push(callback); }
  async function setLang(lang) {
    const before = ranks();
    state.lang = lang; localStorage.setItem("pref_lang", lang);
    await I18N.load(lang);
    if (ranks() !== before) await loadSprite();
    applyI18n();
    for (const f of langListeners) f(lang);
  }
  // The player's rank letters ("ru" or "en"); the cards are drawn again in them.
  async function setRanks(r) {
    localStorage.setItem("pref_ranks", r);
    await loadSprite();
    for (const f of langListeners) f(state.lang);
  }
  // The cards as one sprite in the player's rank letters (/cards/sprite.svg?ranks=ru), drawn once: a card
  // on the page is a <use> of its symbol, so replacing the sprite redraws every card.
  let spriteRanks = null;
  async function loadSprite() {
    const holder = $("sprite");
    if (!holder || spriteRanks === ranks()) return;
    const r = ranks();
    const svg = await fetch("/cards/sprite.svg?ranks=" + r).then((x) => x.text());
    holder.innerHTML = svg; spriteRanks = r;
  }
  // The page's start: the catalog, the card sprite (only where the page has a #sprite holder), the words.
  // Once per page, whichever of its scripts asks first (the lobby has two); each may add its onLang.
  let started = null;
  function start(options) {
    if (options && options.onLang) onLang(options.onLang);
    if (!started) started = begin();
    return started;
  }
  async function begin() {
    const sprite = loadSprite();
    const me = fetch("/api/me").then((r) => r.json()).catch(() => ({ account: null }));
    await I18N.load(state.lang);
    state.account = (await me).account;
    await sprite;  // the cards, drawn once, before anything shows them
    const button = $("lang");
    if (button) button.addEventListener("click", () => setLang(state.lang === "ru" ? "en" : "ru"));
    applyI18n();
  }
  return {
    SUITS, RANKS, STRAINS, PAGES, $, el, cardId, cardText, cardLabel, rankText, sortHand, suitClass, cardSvg, actText,
    applyI18n, onLang, setLang, setRanks, start,
    get lang() { return state.lang; },
    get account() { return state.account; },
    get ranks() { return ranks(); },
  };
})();
