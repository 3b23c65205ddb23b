#!/usr/bin/env node
// A Preferans bot in JavaScript for the preferans bot protocol (docs/bot-protocol.md).
// It reads one JSON message per line on stdin and answers `hello` and `observation`
// with one line on stdout; every other message needs no answer.  No dependencies.
//
//   preferans bot-check "node examples/bot.js"
//   preferans arena --bots medium,cmd:"node examples/bot.js" --deals 50

"use strict";
const readline = require("readline");

const PASS = 61, WHIST = 94;
const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["♠", "♣", "♦", "♥"];

// "Q♥" -> 29: a card's id is 8 * suit + rank (docs/bot-protocol.md, "Action ids").
function cardId(text) {
  const suit = SUITS.indexOf(text.slice(-1));
  return 8 * suit + RANKS.indexOf(text.slice(0, -1));
}
const suitOf = (id) => id >> 3;
const rankOf = (id) => id & 7;
const isCard = (id) => id < 32;
// A bid's id: 32 + 5 * (level - 6) + strain (♠ ♣ ♦ ♥ NT = 0..4).
const bidId = (level, strain) => 32 + 5 * (level - 6) + strain;

// Tricks this hand should take with `strain` as trumps: aces, kings with a guard, long trumps.
function strength(hand, strain) {
  let tricks = 0;
  for (let s = 0; s < 4; s++) {
    const ranks = hand.filter((c) => suitOf(c) === s).map(rankOf);
    if (ranks.includes(7)) tricks += 1;
    if (ranks.includes(6) && ranks.length >= 2) tricks += 0.75;
    if (s === strain && ranks.length > 3) tricks += ranks.length - 3;
  }
  return tricks;
}

function bestStrain(hand) {
  let best = 0;
  for (let s = 1; s < 4; s++) {
    if (hand.filter((c) => suitOf(c) === s).length > hand.filter((c) => suitOf(c) === best).length) best = s;
  }
  return best;
}

function bid(obs, legal) {
  const hand = obs.hand.map(cardId);
  const strain = bestStrain(hand);
  const level = Math.floor(strength(hand, strain) + 1.5); // the talon helps about one trick
  for (const id of legal) {
    // The lowest legal bid in our strain at or below the level we can make.
    for (let l = 6; l <= Math.min(level, 10); l++) if (id === bidId(l, strain)) return id;
  }
  return legal.includes(PASS) ? PASS : legal[0];
}

function discard(obs, legal) {
  // Lay away the lowest card of the shortest side suit (never an ace).
  const hand = legal.filter(isCard);
  const trump = bestStrain(hand);
  const count = (s) => hand.filter((c) => suitOf(c) === s).length;
  const side = hand.filter((c) => suitOf(c) !== trump && rankOf(c) !== 7);
  const pool = side.length ? side : hand;
  pool.sort((a, b) => count(suitOf(a)) - count(suitOf(b)) || rankOf(a) - rankOf(b));
  return pool[0];
}

function whist(obs, legal) {
  const hand = obs.hand.map(cardId);
  const aces = hand.filter((c) => rankOf(c) === 7).length;
  return aces >= 2 && legal.includes(WHIST) ? WHIST : legal.includes(PASS) ? PASS : legal[0];
}

// How strongly a card holds a trick: trumps over the led suit over the rest.
const strengthIn = (card, led, trump) => (suitOf(card) === trump ? 16 : suitOf(card) === led ? 8 : 0) + rankOf(card);

function play(obs, legal) {
  const cards = legal.filter(isCard).sort((a, b) => rankOf(a) - rankOf(b));
  const table = obs.trick.map(([seat, text]) => ({ seat, card: cardId(text) }));
  const contract = obs.contract || "";
  const trump = contract === "misere" ? -1 : SUITS.findIndex((s) => contract.includes(s));
  if (!table.length) {
    return obs.declarer === null || contract === "misere" ? cards[0] : cards[cards.length - 1];
  }
  const led = suitOf(table[0].card);
  const top = table.reduce((a, b) => (strengthIn(b.card, led, trump) > strengthIn(a.card, led, trump) ? b : a));
  const wins = (c) => strengthIn(c, led, trump) > strengthIn(top.card, led, trump);
  const dodging = obs.declarer === null || (contract === "misere" && obs.declarer === obs.to_play);
  if (dodging) {
    // All-pass, or our misère: the highest card that still loses the trick, else the lowest.
    const losing = cards.filter((c) => !wins(c));
    return losing.length ? losing[losing.length - 1] : cards[0];
  }
  const sameSide = (seat) => (seat === obs.declarer) === (obs.to_play === obs.declarer);
  if (table.length === 2 && sameSide(top.seat)) return cards[0]; // partner has it
  const winners = cards.filter(wins);
  return winners.length ? winners[0] : cards[0]; // win as cheaply as we can, else throw the lowest
}

function decide(msg) {
  const obs = msg.observation;
  const legal = msg.legal_ids;
  switch (obs.phase) {
    case "bidding": return bid(obs, legal);
    case "discard": return discard(obs, legal);
    case "whist": return whist(obs, legal);
    case "play": return play(obs, legal);
    default: return legal[0]; // declare the winning bid; the first choice elsewhere
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    process.stdout.write("ok js-example preferans-bot/2\n");
  } else if (msg.type === "observation") {
    process.stdout.write(decide(msg) + "\n"); // an action id is a valid answer
  } else if (msg.type === "quit") {
    rl.close();
    process.exit(0);
  } // rules, game, deal, result, error, end and unknown messages need no answer
});
