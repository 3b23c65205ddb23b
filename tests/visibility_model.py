"""An independent model of what each observer at a table has seen, and random walks that
make every kind of move (issue 14).  Used by the visibility and the record tests.

:class:`TableWitness` is written from what happens at a real table — who is
looking when a card moves — and knows nothing of the engine's ledger.
"""

from __future__ import annotations

import random
from typing import Any

from preferans import Deal, IllegalAction, Phase, Rules
from preferans.actions import (
    ACCEPT_ID,
    CLAIM_BASE,
    INVITE_ID,
    MISDEAL_ID,
    NUM_BIDS,
    OUT_OF_TURN_BASE,
    TALON_EXPOSED_ID,
    TALON_SEEN_ID,
    TALON_TAKEN_ID,
    Action,
)
from preferans.cards import cards_of

from helpers import state_signature

EVERYONE = "everyone"
SPECTATOR = None

# Every preset, and variants that switch on what the presets leave off.
VARIANTS = [Rules.preset(n) for n in Rules.PRESET_NAMES] + [
    Rules.preset("sochi").replace(
        za_svoimi=True, bez_trekh=True, open_timing="before_first_lead", without_talon_bids=True,
        misere_winner_must_play_misere=False, irregularity_reports=True, claims=True,
    ),
    Rules.preset("classic").replace(concede_all=True, za_svoimi=True, ten_mode="checked", claims=True),
    Rules.preset("kodeks").replace(dark_bids=True, third_hand_takes_talon=False, misere_rank="top"),
    Rules.preset("leningrad").replace(dealer_whist=True, za_svoimi=True),
    Rules.preset("sochi").replace(misere_half_dealer_sees_discard=False, irregularity_reports=True),
]


class TableWitness:
    """Who has seen what, kept from the table's events.

    ``where[o]`` maps a card to the place observer ``o`` is sure it lies
    (a seat, ``"talon"``, ``"discard"``, ``"table"``).  A card moved face down
    out of ``o``'s sight leaves him unsure of every card he placed where it
    came from (he cannot tell which one went).  ``talon_seen[o]`` holds the
    cards of the current talon ``o`` saw; ``saw_move[o]`` says for each move
    whether ``o`` saw its card.
    """

    def __init__(self, deal: Deal) -> None:
        self.players = deal.players
        self.observers: list[int | None] = [*range(deal.players), SPECTATOR]
        self.where: dict[int | None, dict[int, object]] = {o: {} for o in self.observers}
        self.ever: dict[int | None, set[int]] = {o: set() for o in self.observers}
        self.talon_seen: dict[int | None, set[int]] = {o: set() for o in self.observers}
        self.saw_move: dict[int | None, list[bool]] = {o: [] for o in self.observers}
        for s in range(deal.players):
            self.look(cards_of(deal.hands[s]), s, {s})
        self.exposed: set[int] = set()
        self.talon_on_table: set[int] = set()
        self.companion: tuple[int, int] | None = None  # (dealer, inviter) after «пополам» is agreed
        self.offender = -1

    # -- the two things that happen to cards -------------------------------------------
    def who(self, witnesses: object) -> list[int | None]:
        if witnesses == EVERYONE:
            return self.observers
        return [o for o in self.observers if o in witnesses]  # type: ignore[operator]

    def look(self, cards: Any, place: Any, witnesses: Any) -> None:
        for o in self.who(witnesses):
            for c in cards:
                self.where[o][c] = place
                self.ever[o].add(c)
                if place == "talon":
                    self.talon_seen[o].add(c)

    def move(self, cards: Any, source: Any, to: Any, witnesses: Any) -> None:
        seeing = self.who(witnesses)
        for o in self.observers:
            if o in seeing:
                for c in cards:
                    self.where[o][c] = to
                    self.ever[o].add(c)
                    if "talon" in (source, to):
                        self.talon_seen[o].add(c)
            else:
                w = self.where[o]
                for c in [c for c, p in w.items() if p == source]:
                    del w[c]  # face down: any of them may be the one that went

    # -- one step of the deal ------------------------------------------------------------
    def step(self, before: dict[str, Any], deal: Deal, seat: int, a: Action) -> None:
        """Record what the table saw when ``seat`` made ``a`` (``before``: public facts just before)."""
        n = len(deal.moves)
        phase = before["phase"]
        dealer = deal.dealer
        card_seen: set[int | None] | str | None = None  # who saw this move's card (for card moves)
        if a == INVITE_ID:
            self.look(cards_of(before["hands"][seat]), seat, {dealer})  # he looks at the inviter's cards
        elif a == ACCEPT_ID and phase == Phase.MISERE_INVITE:
            inviter = next(s for s, x in reversed(deal.moves[:-1]) if x == INVITE_ID)
            self.companion = (dealer, inviter)
        elif a == TALON_SEEN_ID:
            self.look(before["talon"], "talon", {seat})
        elif a == TALON_EXPOSED_ID:
            self.look(before["talon"], "talon", EVERYONE)
        elif a == TALON_TAKEN_ID:
            for o in self.observers:
                self.talon_seen[o] = set()
            self.move(before["talon"], "talon", seat, {seat})
            self.look(before["talon"], seat, {seat})
            if deal.phase != Phase.REDRAW:  # nobody else bidding: he puts the same cards back
                self.move(before["talon"], seat, "talon", {seat})
            self.offender = seat
        elif phase == Phase.REDRAW:
            card_seen = {self.offender}
            self.move([int(a)], self.offender, "talon", card_seen)
        elif phase == Phase.DISCARD:
            # Kodeks 3.6.6 «Снос никому не показывается»: the companion of a misère «пополам»
            # sees it only where the table agreed so (misere_half_dealer_sees_discard).
            companion = self.side_extra(deal) if deal.rules.misere_half_dealer_sees_discard else set()
            card_seen = {seat, *companion}
            self.move([int(a)], deal.declarer, "discard", card_seen)
        elif phase == Phase.PLAY and a.is_card:
            card_seen = EVERYONE
            self.move([int(a)], before["to_play"], "table", EVERYONE)
        for o in self.observers:
            seen = card_seen is not None and (card_seen == EVERYONE or o in card_seen)
            self.saw_move[o].append(seen if a.is_card else True)
        assert len(self.saw_move[SPECTATOR]) == n
        # The talon goes to the declarer face up, except to a misère bid in the dark (Kodeks 3.6.5).
        if deal.talon_taken and not before["talon_taken"]:
            dark = deal.contract is not None and deal.contract.is_misere and any(
                x.is_dark and x.is_bid for s, x in deal.moves if s == deal.declarer
            )
            side = {deal.declarer, *self.side_extra(deal)} if dark else EVERYONE
            self.move(list(deal.talon), "talon", deal.declarer, side)
        # All-pass: the talon cards are turned up to lead (Kodeks 3.7.6).
        tricks = [cards for cards, _ in deal.completed_tricks] + [deal.trick]
        for cards in tricks:
            for s, c in cards:
                if (s < 0 or (self.players == 4 and s == dealer)) and c not in self.talon_on_table:
                    self.talon_on_table.add(c)
                    self.move([c], "talon", "table", EVERYONE)
        for s in deal.exposed:
            if s not in self.exposed:
                self.exposed.add(s)
                self.look(cards_of(deal.hands[s]), s, EVERYONE)

    def side_extra(self, deal: Deal) -> set[int]:
        if self.companion is not None and self.companion[1] == deal.declarer:
            return {self.companion[0]}
        return set()

    # -- the check -------------------------------------------------------------------------
    def check(self, deal: Deal) -> None:
        for o in self.observers:
            obs = deal.public_observation() if o is None else deal.observation(o)
            w = self.where[o]
            assert obs.hand == (0 if o is None else deal.hands[o])
            assert obs.phase is deal.phase
            for s, m in obs.known_hands.items():
                assert m == deal.hands[s], (o, s)
                assert all(w.get(c) == s for c in cards_of(m)), ("leak: hand", o, s)
            for s in range(self.players):
                h = deal.hands[s]
                if s != o and h and all(w.get(c) == s for c in cards_of(h)):
                    assert s in obs.known_hands, ("missing hand", o, s)
            for i in range(2):
                c = deal.talon[i] if i < len(deal.talon) else None
                if obs.talon[i] is not None:
                    assert obs.talon[i] == c and c in self.talon_seen[o], ("leak: talon", o, i)
                elif c is not None:
                    assert c not in self.talon_seen[o], ("missing talon card", o, i)
            discard = sum(1 << c for c, p in w.items() if p == "discard")
            assert obs.discard == discard, ("discard", o)
            for i, ((s, a), (ts, ta)) in enumerate(zip(obs.moves, deal.moves, strict=True)):
                assert s == ts
                assert a == (ta if self.saw_move[o][i] else None), ("move", o, i, ta)
            vis = obs.visible_cards()
            assert not cards_of(vis & ~sum(1 << c for c in self.ever[o])), ("leak: visible", o)
            if obs.legal_actions:
                assert o == deal.to_act and deal.phase != Phase.REDRAW


def public_facts(deal: Deal) -> dict[str, Any]:
    return {
        "phase": deal.phase,
        "hands": deal.hands,
        "talon": [int(c) for c in deal.talon],
        "talon_taken": deal.talon_taken,
        "to_play": deal.to_play,
    }


IRREGULAR = [TALON_SEEN_ID, TALON_EXPOSED_ID, TALON_TAKEN_ID, MISDEAL_ID]


def irregular_moves(deal: Deal, rng: random.Random) -> list[tuple[str, int, Action]]:
    """Reports and claims possible now, with their seats."""
    out = []
    for s in range(deal.players):
        for a in IRREGULAR:
            if a == MISDEAL_ID and rng.random() < 0.8:
                continue  # rarely: it ends the deal at once
            if deal.can_report(a, s):
                out.append(("report", s, Action(a)))
        call = OUT_OF_TURN_BASE + rng.randrange(NUM_BIDS + 1)
        if deal.can_report(call, s):
            out.append(("report", s, Action(call)))
    if deal.phase == Phase.PLAY:
        for s in deal.active:
            t = rng.randrange(deal.tricks_remaining() + 1)
            try:
                deal.verify_claim(s, t)
            except IllegalAction:
                continue
            out.append(("claim", s, Action(CLAIM_BASE + t)))
            out.append(("proven", s, Action(CLAIM_BASE + t)))
    return out


def walk(rules: Rules, players: int, seed: int, *, undo: bool = True) -> Deal:
    rng = random.Random(seed)
    deal = Deal.new(rules, players=players, dealer=rng.randrange(players), seed=seed)
    model = TableWitness(deal)
    model.check(deal)
    while not deal.is_over:
        before = public_facts(deal)
        signature = state_signature(deal)
        extra = irregular_moves(deal, rng)
        if extra and rng.random() < 0.15:
            kind, seat, a = rng.choice(extra)
            if kind == "report":
                deal.report(a, seat)
            else:
                deal.claim(seat, a - CLAIM_BASE, proven=kind == "proven")
                a = deal.moves[-1][1]
        else:
            legal = deal.legal_actions()
            wanted = [x for x in legal if x in (INVITE_ID, ACCEPT_ID) or str(x) in ("whist", "open", "quota")]
            a = rng.choice(wanted) if wanted and rng.random() < 0.5 else rng.choice(legal)
            to_act = deal.to_act
            assert to_act is not None
            seat = to_act
            if undo and rng.random() < 0.2:
                copy = deal.copy()
                deal.apply(a)
                deal.undo()
                assert state_signature(deal) == signature  # undo is exact, the ledger included
                assert state_signature(copy) == signature
            deal.apply(a)
        model.step(before, deal, seat, a)
        model.check(deal)
    return deal
