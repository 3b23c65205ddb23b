"""From the talon to the first card: discard, declaration, whisting, the defence's choices.

rules.md §4–§5, seed-002 pp.20–28, Kodeks 3.5.4.
"""

from __future__ import annotations

from ..actions import (
    ACCEPT_ID,
    BID_BASE,
    BIDS,
    CLOSED_ID,
    CONCEDE_THREE_ID,
    HALF_WHIST_ID,
    MISERE_BID,
    NO_TRUMP,
    OPEN_ID,
    PASS_ID,
    PLAY_ID,
    QUOTA_ID,
    REFUSE_ID,
    WHIST_ID,
    Action,
    Contract,
)
from ..seats import DUMMY
from ._state import (
    ACTIONS,
    AT_DISCARD,
    CONCESSION,
    DECLARE,
    DEFENCE,
    HALF,
    NONE,
    PASSED,
    PLAY,
    QUOTA_ANSWER,
    WHIST,
    WHISTED,
    DealFields,
)
from .ladder import MISERE_KINDS
from .result import DealKind

__all__ = ["DeclaringMixin"]


class DeclaringMixin(DealFields):
    """Transitions and legal actions between the auction and the play."""

    __slots__ = ()  # the slots live on Deal; none here, so a Deal has no __dict__

    def _declarable(self) -> list[int]:
        """Contracts (bid indices) the declarer may name: not lower than the winning bid.

        seed-002 p.21, Kodeks 3.3.11: "bought at 7♦ → 7♠ and 7♣ are not allowed".
        """
        win = self._winning_bid
        if self._totus_seat >= 0:
            return list(range(20, 25))  # a totus: a 10 in any strain
        if win in MISERE_KINDS:
            # rules.md §4.4: a misère winner may switch to a game of 9 or more (option).
            return [MISERE_BID, *list(range(15, 25))]
        wb = BIDS[win]
        if wb.without_talon:
            # «9/10 без прикупа»: any game of that level or higher, talon unseen.
            return list(range((wb.level - 6) * 5, 25))
        pos = self._ladder_pos
        return [b for b in range(25) if pos[b] >= pos[win]]

    def _legal_whists(self) -> tuple[Action, ...]:
        level = self._contract.level if self._contract else 0
        d1, d2 = self.defenders
        c1, c2 = self._calls
        seat = self._to_act
        if self.rules.stalingrad and self._contract == BIDS[0]:
            return (ACTIONS[WHIST_ID],)  # «сталинград»: 6♠ must be whisted (common practice)
        if seat == d1 and c2 == HALF:
            return (ACTIONS[PASS_ID], ACTIONS[WHIST_ID])  # answer to half-whist
        if seat != d1 and seat != d2:
            return (ACTIONS[PASS_ID], ACTIONS[WHIST_ID])  # the 4-handed dealer's whist (dealer_whist)
        if seat == d1 and c1 == WHISTED and c2 == PASSED:
            # first_defender_half_whist: left alone, he stands or falls back to half-whist.
            return (ACTIONS[WHIST_ID], ACTIONS[HALF_WHIST_ID])
        out = [ACTIONS[PASS_ID], ACTIONS[WHIST_ID]]
        if self.players == 2:
            # гусарик: the one live defender; half-whist only by agreement (rules.md §16).
            if self.rules.half_whist_two_handed and level in self.rules.half_whist_levels:
                out.append(ACTIONS[HALF_WHIST_ID])
            return tuple(out)
        if seat == d2 and c1 == PASSED and level in self.rules.half_whist_levels:
            out.append(ACTIONS[HALF_WHIST_ID])
        return tuple(out)

    def _legal_defence(self) -> tuple[Action, ...]:
        if self._open_pending:
            return (ACTIONS[OPEN_ID], ACTIONS[CLOSED_ID])
        out = []
        if self.players == 2:  # гусарик: open play or «за своими», never closed
            return (ACTIONS[OPEN_ID], *((ACTIONS[QUOTA_ID],) if self._quota_possible() else ()))
        if self.rules.open_timing == "before_first_lead":
            out += [ACTIONS[OPEN_ID], ACTIONS[CLOSED_ID]]
        else:
            out.append(ACTIONS[PLAY_ID])
        if self._quota_possible():
            out.append(ACTIONS[QUOTA_ID])
        return tuple(out)

    def _quota_possible(self) -> bool:
        c = self._contract
        # seed-002 p.27: «за своими» — 2 tricks on a 6, 1 on a 7.
        return self.rules.za_svoimi and c is not None and c.level in (6, 7) and not self._quota_refused

    def _discard_card(self, a: Action) -> None:
        seat = self._declarer
        h = list(self._hands)
        h[seat] &= ~(1 << a)
        self._hands = tuple(h)
        self._discard |= 1 << a
        # Face down (seed-002 p.21, Kodeks 3.6.6): seen by the declarer, and by a companion in a
        # misère «пополам» only where the table lets him (Kodeks 3.6.6: «Снос никому не показывается»).
        seen = self._declarer_side() if self.rules.misere_half_dealer_sees_discard else 1 << seat
        self._record(1 << a, seat, AT_DISCARD, seen, len(self._moves) - 1)
        if self._discard.bit_count() < 2:
            return
        if self._kind == DealKind.MISERE and self.rules.misere_winner_must_play_misere:
            self._start_play()
        else:
            self._phase = DECLARE

    def _declare(self, a: Action) -> None:
        bid = a - BID_BASE
        c = BIDS[bid]
        wt = BIDS[self._winning_bid].without_talon
        if c.is_misere:
            self._kind = DealKind.MISERE
            self._contract = Contract(0, NO_TRUMP, wt)
            self._start_play()
            return
        self._kind = DealKind.GAME
        self._contract = Contract(c.level, c.strain, wt, self._totus_seat >= 0)
        if c.level == 10 and self.rules.tens_checked:
            # seed-002 p.26: no whist on a 10; all cards are opened and the game is checked.
            self._ten_checked = True
            self._start_play()
            return
        self._phase = WHIST
        self._to_act = self.defenders[0]  # rules.md §5.1: the declarer's left speaks first
        if self._to_act == DUMMY and self.players == 2:
            self._calls = (PASSED, NONE)  # гусарик: the dummy always passes (rules.md §16)
            self._to_act = self.defenders[1]

    def _whist(self, a: Action) -> None:
        d1, d2 = self.defenders
        c1, c2 = self._calls
        seat = self._to_act
        call = WHISTED if a == WHIST_ID else HALF if a == HALF_WHIST_ID else PASSED
        if seat != d1 and seat != d2:
            self._dealer_answer(call == WHISTED)
            return
        if seat == d1 and c2 == HALF:
            if call == WHISTED:
                # The first defender takes the whist back; the half-whister becomes a passer.
                self._calls = (WHISTED, PASSED)
                self._after_whisting()
            else:
                self._calls = (PASSED, HALF)
                self._half_whist_stands()
            return
        if seat == d1 and c1 == WHISTED and c2 == PASSED:
            if call == HALF:  # first_defender_half_whist: he falls back
                self._calls = (HALF, PASSED)
                self._half_whist_stands()
            else:
                self._after_whisting()
            return
        if seat == d1 and c1 == PASSED and c2 == PASSED:
            # first_defender_second_call: his second word; a whist makes him the lone whister.
            self._calls = (call, PASSED)
            self._after_whisting()
            return
        if seat == d1:
            self._calls = (call, NONE)
            self._to_act = d2
            if d2 == DUMMY and self.players == 2:
                self._calls = (call, PASSED)  # гусарик: the dummy's pass follows
                if call == HALF:
                    self._half_whist_stands()  # nobody to confirm or take it back
                else:
                    self._after_whisting()
            return
        self._calls = (c1, call)
        if call == HALF and self.players == 2:
            self._half_whist_stands()  # гусарик: the dummy who passed cannot take it back
            return
        if call == HALF:
            self._to_act = d1
            return
        r, level = self.rules, self._contract.level if self._contract else 0
        if call == PASSED and c1 == WHISTED and r.first_defender_half_whist and level in r.half_whist_levels:
            self._to_act = d1  # left alone: whist on or fall back to half-whist
            return
        if call == PASSED and c1 == PASSED and r.first_defender_second_call:
            self._to_act = d1  # both passed: the first defender may still whist (Leningrad programs)
            return
        self._after_whisting()

    def _half_whist_stands(self) -> None:
        """A half-whist confirmed: the dealer may whist instead; the half-whister plays
        (half_whist_played) or writes half the quota without play (rules.md §5.4)."""
        if self._dealer_may_whist():
            return
        if self.rules.half_whist_played:
            d1, _ = self.defenders
            self._lone = d1 if self._calls[0] == HALF else self.defenders[1]
            self._to_concession()
            return
        self._finish_not_played()

    def _dealer_may_whist(self) -> bool:
        """dealer_whist: with 4 players the dealer is asked after both defenders passed a 6 or
        a 7, or after a half-whist; True when the deal now waits for his answer."""
        c = self._contract
        if self.players != 4 or not self.rules.dealer_whist or self._dealer_whist >= 0 or c is None:
            return False
        if HALF not in self._calls and c.level not in (6, 7):
            return False
        self._to_act = self.dealer
        return True

    def _dealer_answer(self, whists: bool) -> None:
        self._dealer_whist = 1 if whists else 0
        if whists:
            for d in self.defenders:  # he plays both defending hands, laid open
                self._expose(d)
            self._to_concession()
        elif HALF in self._calls:
            self._half_whist_stands()
        else:
            self._finish_not_played()

    def _after_whisting(self) -> None:
        whisters = self._calls.count(WHISTED)
        if whisters == 0:
            if not self._dealer_may_whist():
                self._finish_not_played()  # seed-002 p.25: both pass, the game is written without play
            return
        if whisters == 1:
            d1, d2 = self.defenders
            self._lone = d1 if self._calls[0] == WHISTED else d2
        self._to_concession()

    def _to_concession(self) -> None:
        """The declarer may concede (без трёх, без всех) before play, where the rules allow."""
        r, c = self.rules, self._contract
        if r.concede_all or (r.bez_trekh and c is not None and c.level <= r.bez_trekh_max_level):
            self._phase = CONCESSION
            self._to_act = self._declarer
            return
        self._after_concession()

    def _concession(self, a: Action) -> None:
        if a == PLAY_ID:
            self._after_concession()
            return
        self._conceded = 3 if a == CONCEDE_THREE_ID else 10
        self._finish()

    def _after_concession(self) -> None:
        if self._lone >= 0 and self.players == 2:
            # гусарик: the whister lays the dummy's hand and his own face up and plays both.
            if self._quota_possible():
                self._phase = DEFENCE
                self._to_act = self._lone
                return
            self._set_open(True)
        elif self._lone >= 0:
            r = self.rules
            if r.open_timing == "before_first_lead" or self._quota_possible():
                self._phase = DEFENCE
                self._to_act = self._lone
                return
            self._open_pending = True  # seed 002 p.28: decided after the declarer's first card
        self._start_play()

    def _defence(self, a: Action) -> None:
        if a == QUOTA_ID:
            self._phase = QUOTA_ANSWER
            self._to_act = self._declarer
            return
        if a == PLAY_ID:
            self._open_pending = True
            self._start_play()
            return
        if self._open_pending:
            # The choice made during play (rules.md §5.5): play goes on.
            self._open_pending = False
            self._set_open(a == OPEN_ID)
            self._phase = PLAY
            self._to_act = self._controller(self._to_play)
            return
        self._set_open(a == OPEN_ID)
        self._start_play()

    def _set_open(self, is_open: bool) -> None:
        self._open = is_open
        if is_open:
            for d in self.defenders:
                self._expose(d)

    # ------------------------------------------------------------------ «ловлю» / «доверяю»
    def _legal_catch(self) -> tuple[Action, ...]:
        """misere_catchers="one_for_both": «ловлю» (``whist``) or ``pass``; the partner of a
        catcher who said it answers «доверяю» (``accept``) or ``refuse``."""
        if self._catch_offer >= 0:
            return (ACTIONS[ACCEPT_ID], ACTIONS[REFUSE_ID])
        return (ACTIONS[PASS_ID], ACTIONS[WHIST_ID])

    def _catch(self, a: Action) -> None:
        d1, d2 = self.defenders
        seat = self._to_act
        partner = d2 if seat == d1 else d1
        if self._catch_offer >= 0:
            if a == ACCEPT_ID:
                self._catcher = self._catch_offer  # he plays both hands, still laid open
            self._catch_offer = -1
        elif a == WHIST_ID:
            self._catch_offer = seat  # «ловлю»: his partner answers
            self._to_act = partner
            return
        elif seat == d1:
            self._to_act = d2  # the first passed: the second may say «ловлю»
            return
        self._catch_done = True  # settled: a trusted catcher, or each plays his own
        self._start_play()

    def _quota_answer(self, a: Action) -> None:
        if a == ACCEPT_ID:
            self._za_svoimi = True
            self._finish_not_played()
            return
        self._quota_refused = True
        self._phase = DEFENCE
        self._to_act = self._lone
