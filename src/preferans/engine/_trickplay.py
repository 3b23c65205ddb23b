"""Trick play and the all-pass: legal cards, tricks, talon leads (rules.md §6–§8).

Kodeks 3.6.6–3.6.7 (misère), 3.7.5–3.7.6 (all-pass).  This is the hot path of
the engine: legal cards are a few mask operations and a table lookup.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import _BYTE_CARDS_UP, DECK, SUIT_MASKS
from ..seats import DUMMY, next_active
from ._state import AT_TABLE, AT_TALON, CARD_ACTIONS, DEFENCE, MISERE_CATCH, OVER, PLAY, PUBLIC, DealFields, Trick
from .result import DealKind

__all__ = ["PlayMixin"]

# The card actions held in one suit's byte, ascending: legal cards are a table lookup per suit.
_BYTE_ACTIONS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(CARD_ACTIONS[c] for c in cards) for cards in suit) for suit in _BYTE_CARDS_UP
)


class PlayMixin(DealFields):
    """Transitions and legal cards of trick play."""

    __slots__ = ()  # the slots live on Deal; none here, so a Deal has no __dict__

    def _legal_cards(self) -> tuple[Action, ...]:
        hand = self._hands[self._to_play]
        trick = self._trick
        if not trick and self._lead_rule is not None and self._lead_rule[0] == self._to_play:
            hand = self._restricted_lead(hand)
        elif trick:
            led = trick[0][1] >> 3
            follow = hand & SUIT_MASKS[led]
            if follow:
                hand = follow
            else:
                trump = self._contract.trump if self._contract is not None else None
                if trump is not None and hand & SUIT_MASKS[trump]:
                    hand &= SUIT_MASKS[trump]  # rules.md §6: a void player must trump
        t = _BYTE_ACTIONS
        return t[0][hand & 0xFF] + t[1][hand >> 8 & 0xFF] + t[2][hand >> 16 & 0xFF] + t[3][hand >> 24]

    def _start_all_pass(self) -> None:
        self._kind = DealKind.ALL_PASS
        self._phase = PLAY
        fh = self.first_hand
        if self._raspas_talon == "unused":
            self._leader = self._to_play = self._to_act = fh
            return
        self._lead_talon_card(0)

    def _lead_talon_card(self, i: int) -> None:
        # Kodeks 3.7.6.1/3.7.6.3: the talon card leads; first hand plays first.
        seat = self.dealer if self._raspas_talon == "participates" else -1
        card = self._talon[i]
        self._trick = ((seat, card),)
        self._record(1 << card, AT_TALON, AT_TABLE, PUBLIC)  # turned up for everybody
        self._leader = self._to_play = self._to_act = self.first_hand

    def _start_play(self) -> None:
        c = self._contract
        if (c is not None and c.is_misere and not self._catch_done and self.rules.misere_catchers == "one_for_both"
                and not self._dark_misere() and self.players > 2):  # fmt: skip
            # «Ловлю» / «доверяю»: the catchers settle who plays before the first lead (a dark
            # misère is caught in the dark, each with his own cards, Kodeks 3.6.5; in гусарик the
            # one catcher already plays the dummy open).
            self._phase = MISERE_CATCH
            self._to_act = self.defenders[0]
            return
        self._phase = PLAY
        fh = self.first_hand  # rules.md §2: first hand leads in every kind of deal
        self._leader = self._to_play = fh
        if self._ten_checked:
            for s in self.active:
                self._expose(s)
        elif c is not None and c.is_misere and not self._dark_misere() and fh != self._declarer:
            self._expose_misere_defenders()  # Kodeks 3.6.6: before the first lead
        self._to_act = self._controller(fh)
        self._maybe_lead_penalty()

    def _expose_misere_defenders(self) -> None:
        for d in self.defenders:
            self._expose(d)

    def _expose(self, seat: int) -> None:
        """``seat``'s hand is laid face up for everybody (and stays so)."""
        if not self._exposed >> seat & 1:
            self._exposed |= 1 << seat
            self._record(self._hands[seat], seat, seat, PUBLIC)

    def _controller(self, seat: int) -> int:
        """Who decides for a hand: in open play the whister plays his partner's cards, after a
        dealer's whist the dealer plays both defending hands, and a misère catcher trusted
        («доверяю») plays both catching hands."""
        if self._dealer_whist == 1 and seat != self._declarer:
            return self.dealer
        if self._catcher >= 0 and seat != self._declarer:
            return self._catcher
        if seat == DUMMY and self.players == 2:
            return 1 - self._declarer  # гусарик: the defending player plays the dummy (rules.md §16)
        if self._open and self._lone >= 0 and seat != self._declarer and seat != self._lone:
            return self._lone
        return seat

    def _play_card(self, a: Action) -> None:
        seat = self._to_play
        h = self._hands
        if seat == 0:
            self._hands = (h[0] & ~(1 << a), *h[1:])
        else:
            lst = list(h)
            lst[seat] &= ~(1 << a)
            self._hands = tuple(lst)
        self._ledger = ((1 << a, seat, AT_TABLE, PUBLIC, len(self._moves) - 1), self._ledger)
        trick = (*self._trick, (seat, DECK[a]))
        self._trick = trick
        if self._lead_rule is not None and len(trick) == 1 and self._lead_rule[0] == seat:
            self._lead_rule = None  # Kodeks 3.3.18 binds only that first lead
        # A talon card leading an all-pass trick sits first with no active seat (Kodeks 3.7.6).
        t0 = trick[0][0]
        played = len(trick) - 1 if t0 < 0 or self._order[t0] < 0 else len(trick)
        two_handed_raspas = self.players == 2 and self._kind == DealKind.ALL_PASS
        if played < (2 if two_handed_raspas else 3):
            # гусарик's all-pass: the dummy takes no part, ten tricks of two (Kodeks 3.7.6.4).
            nxt = 1 - seat if two_handed_raspas else next_active(self.active, seat)
            self._to_play = nxt
            if played == 1 and not self._completed:
                self._after_first_card()
            if self._open_pending and seat == self._declarer and self._phase == PLAY:
                self._ask_open()  # seed 002 p.28: after the declarer's first card
            if self._phase == PLAY:
                self._to_act = self._controller(nxt)
            return
        self._finish_trick(trick)
        if self._open_pending and seat == self._declarer and self._phase == PLAY:
            self._ask_open()  # the declarer's first card closed trick 1 (he is third hand)

    def _after_first_card(self) -> None:
        c = self._contract
        if c is not None and c.is_misere and self._declarer == self.first_hand and not self._dark_misere():
            self._expose_misere_defenders()  # Kodeks 3.6.6: after the declarer's lead
        if self._open_pending and self.rules.open_timing == "after_first_lead":
            self._ask_open()

    def _ask_open(self) -> None:
        """The lone whister now chooses open or closed play (rules.md §5.5)."""
        self._phase = DEFENCE
        self._to_act = self._lone

    def _finish_trick(self, trick: Trick) -> None:
        led = trick[0][1] >> 3
        trump = self._contract.trump if self._contract is not None else None
        best_seat, best_key = -1, -1
        for s, c in trick:
            if s < 0:
                continue  # a suit-only talon card cannot win (Kodeks 3.7.6.3)
            suit = c >> 3
            if trump is not None and suit == trump:
                key = 16 + (c & 7)
            elif suit == led:
                key = 8 + (c & 7)
            else:
                continue
            if key > best_key:
                best_seat, best_key = s, key
        won = list(self._tricks_won)
        if best_seat >= 0:
            won[best_seat] += 1
        self._tricks_won = tuple(won)
        self._completed = (*self._completed, (trick, best_seat))
        self._trick = ()
        n = len(self._completed)
        if n == 10:
            self._finish()
            return
        if self._kind == DealKind.ALL_PASS and self._raspas_talon != "unused" and n < 3:
            if n == 1:
                self._lead_talon_card(1)
                return
            # Kodeks 3.7.6.1: trick 3 is led by first hand, whoever won trick 2.
            self._leader = self._to_play = self.first_hand
            self._to_act = self.first_hand
            return
        # rules.md §6: the winner leads (from trick 3 on only players can win).
        self._leader = self._to_play = best_seat
        self._to_act = self._controller(best_seat)
        if self._out_of_turn:
            self._maybe_lead_penalty()

    def _finish_not_played(self) -> None:
        self._kind = DealKind.NOT_PLAYED
        self._finish()

    def _finish(self) -> None:
        self._phase = OVER
        self._to_act = -1
        self._to_play = -1
