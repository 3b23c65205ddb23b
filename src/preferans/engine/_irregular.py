"""Irregularities at the table and claims, as explicit actions (issue 10).

Kodeks 3.3.16–3.3.18 and seed-002 p.12 say what happens when someone sees,
exposes or takes the talon during the auction, calls out of turn, or deals out
of turn; a claim ends the play by agreement (or by proof).  Each is recorded
in the deal's history as an :class:`~preferans.actions.Action` with an id of
its own (see :mod:`preferans.actions`), so records replay them and ``undo``
takes them back.  They never appear in :meth:`~preferans.Deal.legal_actions`:
they are *reported* with :meth:`report` and :meth:`claim`.  The answers they
call for (``require``/``forbid``/``waive``, ``accept``/``refuse``, the dealer's
redraw) are ordinary legal actions when they are due.
"""

from __future__ import annotations

from ..actions import (
    ACCEPT_ID,
    BIDS,
    CLAIM_BASE,
    FORBID_ID,
    MISDEAL_ID,
    NO_TRUMP,
    NUM_BIDS,
    OUT_OF_TURN_BASE,
    PROVEN_CLAIM_BASE,
    REQUIRE_ID,
    TALON_EXPOSED_ID,
    TALON_SEEN_ID,
    TALON_TAKEN_ID,
    Action,
)
from ..cards import SUIT_MASKS, SUIT_SYMBOLS, mask_of
from ..errors import ActionError, IllegalAction
from ..i18n import Call, Msg
from ..seats import dummy_seat
from ._state import (
    ACTIONS,
    AT_TALON,
    BIDDING,
    CLAIM_ANSWER,
    LEAD_PENALTY,
    OVER,
    PLAY,
    PUBLIC,
    REDRAW,
    DealFields,
)
from .ladder import MISERE_KINDS
from .result import DealKind

__all__ = ["IrregularMixin"]


class IrregularMixin(DealFields):
    """Reporting irregularities and claims, and the phases they open."""

    __slots__ = ()  # the slots live on Deal; none here, so a Deal has no __dict__

    # ------------------------------------------------------------------ reporting
    def can_report(self, action: Action | int | str, seat: int) -> bool:
        try:
            self.verify_report(action, seat)
        except IllegalAction:
            return False
        return True

    def verify_report(self, action: Action | int | str, seat: int) -> Action:
        """Raise :class:`IllegalAction` naming the rule if this report is impossible now."""
        a = self._irregular_action(action)
        if not 0 <= seat < self.players:
            raise IllegalAction(Msg("{report}: seat must be 0..{last}, not {seat}", report=Call(str(a)),
                                    last=self.players - 1, seat=seat))  # fmt: skip
        if self._phase != BIDDING:
            raise IllegalAction(Msg(
                "{report}: this irregularity is reported during the auction (Kodeks 3.3.16–3.3.18, "
                "seed-002 p.12); the deal is in the {phase} phase", report=Call(str(a)),
                phase=Msg(self.phase_name, context="phase")))  # fmt: skip
        bidder = seat in self.active and not self._passed >> seat & 1
        if a in (TALON_SEEN_ID, TALON_TAKEN_ID) and seat not in self.active:
            raise IllegalAction(Msg("{report}: seat {seat} is the dealer, who takes no part in this deal",
                                    report=Call(str(a)), seat=seat))  # fmt: skip
        if a == TALON_SEEN_ID and not bidder:
            raise IllegalAction(Msg("{report}: seat {seat} has already passed, so seeing the talon changes nothing "
                                    "(3.3.16)", report=Call(str(a)), seat=seat))  # fmt: skip
        if OUT_OF_TURN_BASE <= a <= OUT_OF_TURN_BASE + NUM_BIDS:
            if not bidder:
                raise IllegalAction(Msg("{report}: seat {seat} is not bidding (passed, or the dealer)",
                                        report=Call(str(a)), seat=seat))  # fmt: skip
            if seat == self._to_act:
                raise IllegalAction(Msg("{report}: it is seat {seat}'s turn, so the call is not out of turn",
                                        report=Call(str(a)), seat=seat))  # fmt: skip
        return a

    def report(self, action: Action | int | str, seat: int) -> None:
        """Report an irregularity committed by ``seat`` and apply its consequence.

        * ``!talon-seen`` — seen by the offender only: he loses the right to bid
          and the auction goes on without him (Kodeks 3.3.16, 3.3.16.1).
        * ``!talon-exposed`` — opened to everybody: with one other player still
          bidding, he gets the talon and his last bid is final (3.3.16.2); with
          two, the deal ends and is assessed as whists on the offender
          (3.3.16.3, :func:`preferans.rulings.assessment.assess_exposed_talon`).
          Shown by the 4-handed dealer under ``dealer_shown_talon_whists``, the
          deal goes on and the declarer writes that many whist prices on him.
        * ``!talon-taken`` — the talon went into the offender's hand: the dealer
          draws two of his twelve cards face down back into the talon (3.3.17),
          and the offender loses the right to bid (3.3.16).
        * ``!misdeal`` — dealt out of turn: the deal is void and the right
          dealer deals again (seed-002 p.12).
        * ``!out-of-turn <call>`` — the offender waits for his turn; if he ends
          up defending, the declarer may require or forbid the announced suit
          at his partner's first lead (3.3.18).
        """
        a = self.verify_report(action, seat)
        self._undo.append(self._save())
        self._moves.append((seat, a))
        self._move_phases.append(self._phase)
        self._legal = None
        if a == MISDEAL_ID:
            self._offender = seat
            self._kind = DealKind.VOID
            self._finish()
        elif a == TALON_SEEN_ID:
            self._talon_seen_by |= 1 << seat
            self._record(mask_of(self._talon), AT_TALON, AT_TALON, 1 << seat)
            self._lose_bidding_right(seat)
        elif a == TALON_EXPOSED_ID and self._dealer_shows_talon(seat):
            # dealer_shown_talon_whists: the 4-handed dealer showed it; everybody has seen it and
            # the deal goes on — the declarer will write whists on him (rules.md §3.3).
            self._talon_seen_by = (1 << self.players) - 1
            self._talon_shown_by_dealer = True
            self._record(mask_of(self._talon), AT_TALON, AT_TALON, PUBLIC)
        elif a == TALON_EXPOSED_ID:
            self._record(mask_of(self._talon), AT_TALON, AT_TALON, PUBLIC)
            self._talon_exposed(seat)
        elif a == TALON_TAKEN_ID:
            self._talon_taken_by(seat)
        else:
            bid = a - OUT_OF_TURN_BASE
            suit = -1 if bid >= NUM_BIDS else BIDS[bid].strain
            self._out_of_turn = (*self._out_of_turn, (seat, suit if suit != NO_TRUMP else -1))

    def _irregular_action(self, action: Action | int | str) -> Action:
        if isinstance(action, str):
            text = action.strip()
            try:
                a = Action.parse(text if text.startswith("!") else "!" + text, bid=True)
            except ActionError:
                a = Action.parse(text, bid=True)
        else:
            a = Action(action)
        if not (TALON_SEEN_ID <= a <= OUT_OF_TURN_BASE + NUM_BIDS):
            raise IllegalAction(
                f"{a} is not an irregularity: report !talon-seen, !talon-exposed, !talon-taken, "
                "!misdeal or !out-of-turn <call>"
            )
        return a

    @property
    def phase_name(self) -> str:
        return str(self.phase.value)

    def _lose_bidding_right(self, seat: int) -> None:
        """Kodeks 3.3.16: whoever saw or took the talon takes no further part in the auction."""
        was_to_act = seat == self._to_act
        self._passed |= 1 << seat
        remaining = [s for s in self.active if not self._passed >> s & 1]
        if not remaining:
            self._start_all_pass()
        elif len(remaining) == 1 and self._best_seat == remaining[0]:
            self._end_auction(remaining[0])
        elif was_to_act or self._passed >> self._to_act & 1:
            self._after_call(seat if was_to_act else self._to_act)

    def _dealer_shows_talon(self, seat: int) -> bool:
        return self.players == 4 and seat == self.dealer and self.rules.dealer_shown_talon_whists > 0

    def _talon_exposed(self, seat: int) -> None:
        self._offender = seat
        self._talon_seen_by = (1 << self.players) - 1
        unfinished = [s for s in self.active if s != seat and not self._passed >> s & 1]
        if seat in self.active:
            self._passed |= 1 << seat
        if not unfinished:
            self._start_all_pass()
        elif len(unfinished) == 1:
            # Kodeks 3.3.16.2: the talon goes to the last bidder; his last bid is final.
            u = unfinished[0]
            last = self._last_bid[u]
            if last < 0:
                last = (max(self.min_level, 6 + self._dark_passers.bit_count()) - 6) * 5
            self._best = last
            self._best_seat = u
            if last in MISERE_KINDS:
                self._misere_seat = u
            self._end_auction(u)
        else:
            # Kodeks 3.3.16.3: two still bidding — all cards are opened and assessed.
            self._claimants = tuple(
                (s, str(BIDS[self._last_bid[s]]) if self._last_bid[s] >= 0 else "") for s in unfinished
            )
            self._kind = DealKind.PENALTY
            for s in self.active:
                self._expose(s)
            self._finish()

    def _talon_taken_by(self, seat: int) -> None:
        """Kodeks 3.3.17: the talon went into ``seat``'s hand before the auction ended.

        «…а другой желает объявить игру»: when another player is still bidding
        (has not passed), the offender shuffles his twelve cards and the dealer
        draws two of them face down back into the talon.  Otherwise nobody else
        wants to declare a game, so there is nothing to redraw for: the offender
        puts the two cards back as they were, face down.  Either way he loses
        the right to bid (3.3.16), so with nobody bidding the deal is an all-pass.
        """
        talon = mask_of(self._talon)
        self._record(talon, AT_TALON, seat, 1 << seat)  # into his hand, seen by him alone
        others = [s for s in self.active if s != seat and not self._passed >> s & 1]
        if not others:
            self._record(talon, seat, AT_TALON, 1 << seat)
            self._lose_bidding_right(seat)
            return
        self._offender = seat
        self._resume_to_act = self._to_act
        hands = list(self._hands)
        hands[seat] |= talon
        self._hands = tuple(hands)
        self._talon = ()
        self._phase = REDRAW
        self._to_act = self.dealer  # Kodeks 3.3.17: the dealer draws face down

    def _redraw(self, a: Action) -> None:
        """The dealer draws one of the offender's twelve cards back into the talon."""
        hands = list(self._hands)
        hands[self._offender] &= ~(1 << a)
        self._hands = tuple(hands)
        self._talon = (*self._talon, ACTIONS[a].card)  # type: ignore[arg-type]
        # «взакрытую»: face down; only the offender knows which two left his hand.
        self._record(1 << a, self._offender, AT_TALON, 1 << self._offender, len(self._moves) - 1)
        if len(self._talon) < 2:
            return
        self._phase = BIDDING
        self._to_act = self._resume_to_act
        offender = self._offender
        self._offender = -1
        self._lose_bidding_right(offender)

    # ------------------------------------------------------------------ Kodeks 3.3.18
    def _maybe_lead_penalty(self) -> None:
        """At the first lead of an out-of-turn caller's partner, the declarer chooses."""
        if self._kind not in (DealKind.GAME, DealKind.MISERE) or self._trick:
            return
        leader = self._to_play
        defenders = self.defenders
        if leader not in defenders:
            return
        partner = defenders[0] if leader == defenders[1] else defenders[1]
        for i, (seat, suit) in enumerate(self._out_of_turn):
            if seat == partner and suit >= 0:
                self._out_of_turn = self._out_of_turn[:i] + self._out_of_turn[i + 1 :]
                self._lead_rule = (leader, suit, True)
                self._phase = LEAD_PENALTY
                self._to_act = self._declarer
                return

    def _lead_penalty(self, a: Action) -> None:
        assert self._lead_rule is not None
        leader, suit, _ = self._lead_rule
        if a == REQUIRE_ID:
            self._lead_rule = (leader, suit, True)
        elif a == FORBID_ID:
            self._lead_rule = (leader, suit, False)
        else:
            self._lead_rule = None
        self._phase = PLAY
        self._to_act = self._controller(leader)

    def _restricted_lead(self, hand: int) -> int:
        assert self._lead_rule is not None
        _, suit, require = self._lead_rule
        in_suit = hand & SUIT_MASKS[suit]
        if require:
            return in_suit or hand  # he must lead it if he has it
        return hand & ~SUIT_MASKS[suit] or hand  # he may not, unless he has nothing else

    @property
    def lead_rule(self) -> str | None:
        """The pending Kodeks 3.3.18 restriction, as text (``"♦ required of seat 2"``)."""
        if self._lead_rule is None or self._phase == LEAD_PENALTY:
            return None
        seat, suit, require = self._lead_rule
        return f"{SUIT_SYMBOLS[suit]} {'required of' if require else 'forbidden to'} seat {seat}"

    # ------------------------------------------------------------------ claims
    def tricks_remaining(self) -> int:
        """Tricks not yet finished (the one on the table counts as remaining)."""
        return 10 - len(self._completed)

    def verify_claim(self, seat: int, tricks: int) -> None:
        if self._phase != PLAY:
            raise IllegalAction(Msg("claim: only during play, not in the {phase} phase",
                                    phase=Msg(self.phase_name, context="phase")))  # fmt: skip
        if self._kind not in (DealKind.GAME, DealKind.MISERE):
            raise IllegalAction(Msg("claim: only in a game or a misère, where two sides play against each other"))
        if seat not in self.active:
            raise IllegalAction(Msg("claim: seat {seat} holds no cards in this deal", seat=seat))
        left = self.tricks_remaining()
        if not 0 <= tricks <= left:
            raise IllegalAction(Msg("claim: {count} tricks claimed, but {left} remain", count=tricks, left=left))

    def claim(self, seat: int, tricks: int, *, proven: bool = False) -> None:
        """``seat`` claims that his side takes ``tricks`` of the remaining tricks.

        With ``proven=True`` (a proof by the solver against every layout the
        claimer cannot see, :func:`preferans.rulings.claims.prove_claim`) play
        ends at once; otherwise each opponent answers ``accept`` or ``refuse``,
        and on a refusal the play goes on.
        """
        self.verify_claim(seat, tricks)
        base = PROVEN_CLAIM_BASE if proven else CLAIM_BASE
        self._undo.append(self._save())
        self._moves.append((seat, ACTIONS[base + tricks]))
        self._move_phases.append(self._phase)
        self._legal = None
        if proven:
            self._settle_claim(seat, tricks)
            return
        side = self._side(seat)
        self._claim = (seat, tricks)
        # гусарик: the dummy never acts on its own; the whister, who plays its cards, answers for it (rules.md §16).
        self._claim_answer_by = tuple(s for s in self.active if s not in side and s != dummy_seat(self.players))
        self._phase = CLAIM_ANSWER
        self._to_act = self._claim_answer_by[0]

    def _side(self, seat: int) -> tuple[int, ...]:
        return (self._declarer,) if seat == self._declarer else self.defenders

    def _claim_answer(self, a: Action) -> None:
        assert self._claim is not None
        if a == ACCEPT_ID and len(self._claim_answer_by) > 1:
            self._claim_answer_by = self._claim_answer_by[1:]
            self._to_act = self._claim_answer_by[0]
            return
        claim = self._claim
        self._claim = None
        self._claim_answer_by = ()
        self._phase = PLAY
        if a == ACCEPT_ID:
            self._settle_claim(*claim)
        else:
            self._to_act = self._controller(self._to_play)

    def _settle_claim(self, seat: int, tricks: int) -> None:
        """Give out the remaining tricks as claimed and end the play.

        The claimer's side takes ``tricks``; the other side the rest.  Tricks of
        a side of two are credited to the claimer (his side) or shared as evenly
        as possible starting at the declarer's left (the other side) (house agreement).
        """
        left = self.tricks_remaining()
        won = list(self._tricks_won)
        other = left - tricks
        if seat == self._declarer:
            won[seat] += tricks
            d1, d2 = self.defenders
            won[d1] += (other + 1) // 2
            won[d2] += other // 2
        else:
            won[seat] += tricks
            won[self._declarer] += other
        self._tricks_won = tuple(won)
        self._final_claim = (seat, tricks)
        self._trick = ()
        self._phase = OVER
        self._to_act = -1
        self._to_play = -1
