"""A double-dummy position: three open hands, the trick on the table, the goal.

Players are the three *active* hands by index: 0 = first hand, 1 = second,
2 = third (rules.md §2); the order of play is 0 → 1 → 2 → 0.  The text form is

``<hand 0> / <hand 1> / <hand 2> | <goal> key=value …``

with hands in any :func:`preferans.cards.parse_cards` form and the keys
``trump`` (``♥``/``H``/``NT``), ``declarer`` (on all-pass also ``player``),
``leader``, ``trick`` and ``talon`` (cards joined by commas) and ``mode``
(``suit_only`` / ``participates``, the all-pass talon rule).

>>> p = Position.parse("♠A K / ♠Q 7 / ♠10 9 | tricks trump=NT declarer=0 leader=0")
>>> p.to_play, [str(c) for c in p.legal_moves()]
(0, ['K♠', 'A♠'])
>>> str(p.play(Card.parse("A♠")))
'♠K / ♠Q 7 / ♠10 9 | tricks trump=NT declarer=0 leader=0 trick=A♠'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import SUIT_SYMBOLS, Card, Suit, cards_of, format_hand, parse_cards, to_mask
from ..errors import CardError, SolverError

if TYPE_CHECKING:
    from ..engine.deal import Deal

__all__ = ["GOALS", "TALON_MODES", "Position", "SolverError"]

GOALS = ("tricks", "misere", "allpass")
TALON_MODES = ("suit_only", "participates", "unused")



def _suit_mask(s: int) -> int:
    return 0xFF << (8 * s)


@dataclass(frozen=True, slots=True)
class Position:
    """What the solver searches; immutable and hashable.

    * ``hands`` — three card masks: first, second and third hand.
    * ``leader`` — who led the current trick (0–2); on a talon trick first hand, 0.
    * ``declarer`` — whose tricks are counted: the declarer, or on all-pass the
      player whose value is asked.
    * ``goal`` — ``"tricks"`` (trump / no-trump game: the declarer maximises),
      ``"misere"`` (the declarer minimises) or ``"allpass"`` (the player
      minimises against the other two together).
    * ``trump`` — a suit 0–3, or ``None`` (no-trump, misère and all-pass, Kodeks 3.6.7).
    * ``trick`` — players' cards already on the table this trick, in order of play.
    * ``talon`` — all-pass: talon cards that still lead a trick; the first leads
      the current one (rules.md §8.2).
    * ``talon_mode`` — ``"suit_only"`` (3 players: the talon card names the suit),
      ``"participates"`` (4 players: it can take the trick for the dealer) or
      ``"unused"`` (Rostov: no talon leads).
    """

    hands: tuple[int, int, int]
    leader: int = 0
    declarer: int = 0
    goal: str = "tricks"
    trump: int | None = None
    trick: tuple[Card, ...] = ()
    talon: tuple[Card, ...] = ()
    talon_mode: str = "suit_only"

    def __post_init__(self) -> None:
        self._validate()

    # ------------------------------------------------------------------ derived
    @property
    def to_play(self) -> int:
        """The player whose card comes next."""
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return self.hands[self.to_play].bit_count()

    @property
    def led_suit(self) -> int | None:
        """The suit of the current trick: the talon card's, or the first card's."""
        if self.talon:
            return self.talon[0] >> 3
        return self.trick[0] >> 3 if self.trick else None

    def legal_moves(self) -> tuple[Card, ...]:
        """The cards the player to move may play, low ids first.

        Follow suit; when void, trump if holding a trump; else any card (rules.md §6).
        """
        h = self.hands[self.to_play]
        led = self.led_suit
        if led is not None:
            follow = h & _suit_mask(led)
            if follow:
                return cards_of(follow)
            if self.trump is not None and h & _suit_mask(self.trump):
                return cards_of(h & _suit_mask(self.trump))
        return cards_of(h)

    def trick_winner(self, cards: tuple[Card, ...]) -> int | None:
        """Who takes a complete trick of these players' cards (``None``: nobody).

        Highest trump, else the highest card of the led suit (rules.md §6).  On an
        all-pass talon trick the talon card leads; with ``suit_only`` it only names
        the suit and nobody takes the trick if nobody follows; with ``participates``
        it can win, and then no player takes it (Kodeks 3.7.6.1, 3.7.6.3).
        """
        first = 0 if self.talon else self.leader
        led = self.talon[0] >> 3 if self.talon else cards[0] >> 3
        best: int | None = None
        who: int | None = None
        if self.talon and self.talon_mode == "participates":
            best = self.talon[0]
        for i, c in enumerate(cards):
            s = c >> 3
            if best is None:
                wins = s == led
            elif s == best >> 3:
                wins = c > best
            else:
                wins = s == self.trump
            if wins:
                best, who = c, (first + i) % 3
        return who

    def play(self, card: int) -> Position:
        """The position after the player to move plays ``card``."""
        c = Card(card)
        if c not in self.legal_moves():
            raise SolverError(
                f"player {self.to_play} cannot play {c}: legal cards are "
                + " ".join(str(x) for x in self.legal_moves())
            )
        p = self.to_play
        hands = list(self.hands)
        hands[p] &= ~(1 << c)
        trick = (*self.trick, c)
        if len(trick) < 3:
            return _replace(self, hands=tuple(hands), trick=trick)
        winner = self.trick_winner(trick)
        talon = self.talon[1:]
        # rules.md §8.2: after a talon trick first hand plays first again; rules.md §6:
        # otherwise the winner of the trick leads.
        leader = 0 if self.talon or winner is None else winner
        return _replace(self, hands=tuple(hands), trick=(), talon=talon, leader=leader)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_deal(cls, deal: Deal, *, player: int | None = None) -> Position:
        """The position of a deal in card play.

        ``player`` (an absolute seat) chooses whose value is asked on all-pass;
        by default the seat to play.  For a game or misère it is the declarer.
        """
        from ..engine.deal import Phase
        from ..engine.result import DealKind

        if deal.phase is not Phase.PLAY:
            raise SolverError(f"the deal is not in card play (phase {deal.phase.value!r})")
        active = tuple(deal.active)
        index = {s: i for i, s in enumerate(active)}
        hands = (deal.hands[active[0]], deal.hands[active[1]], deal.hands[active[2]])
        on_table = [(s, c) for s, c in deal.trick if s in index]
        to_play = deal.to_play
        assert to_play is not None
        trump: int | None = None
        talon: tuple[Card, ...] = ()
        mode = "suit_only"
        if deal.kind == DealKind.ALL_PASS:
            goal = "allpass"
            mode = deal.rules.raspas_talon_for(deal.players)
            if mode != "unused":
                talon = tuple(deal.talon[deal.trick_number : 2])  # Kodeks 3.7.6: tricks 1–2
            seat = to_play if player is None else player
            if seat not in index:
                raise SolverError(f"seat {seat} does not play this deal (active: {active})")
            focus = index[seat]
        elif deal.kind == DealKind.MISERE:
            goal = "misere"
            assert deal.declarer is not None
            focus = index[deal.declarer]
        else:
            goal = "tricks"
            trump = deal.trump
            assert deal.declarer is not None
            focus = index[deal.declarer]
        leader = 0 if talon else index[on_table[0][0] if on_table else to_play]
        return cls(
            hands=hands,
            leader=leader,
            declarer=focus,
            goal=goal,
            trump=trump,
            trick=tuple(c for _, c in on_table),
            talon=talon,
            talon_mode=mode,
        )

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the text form (see the module docstring); ``str(position)`` writes it."""
        if not isinstance(text, str):
            raise SolverError(f"position: give its text form, not {type(text).__name__} {text!r}")
        hands_text, _, rest = text.partition("|")
        parts = hands_text.split("/")
        if len(parts) != 3:
            raise SolverError(
                f"give three hands separated by '/', found {len(parts)}: {hands_text.strip()!r}"
            )
        hands = tuple(_parse_mask(part, f"hand {i}") for i, part in enumerate(parts))
        fields: dict[str, str] = {}
        goal = "tricks"
        for token in rest.split():
            key, eq, value = token.partition("=")
            if not eq:
                goal = token.lower().replace("è", "e")
                continue
            fields[key.lower()] = value
        unknown = set(fields) - {"trump", "declarer", "player", "leader", "trick", "talon", "mode"}
        if unknown:
            raise SolverError(
                f"unknown key {sorted(unknown)[0]!r}: use trump, declarer, leader, trick, talon, mode"
            )
        trump: int | None = None
        t = fields.get("trump", "NT")
        if t.upper() not in ("NT", "БК", "-"):
            try:
                trump = int(Suit.parse(t))
            except CardError as e:
                raise SolverError(f"trump: {e}") from None
        return cls(
            hands=(hands[0], hands[1], hands[2]),
            leader=_parse_player(fields.get("leader", "0"), "leader"),
            declarer=_parse_player(fields.get("declarer", fields.get("player", "0")), "declarer"),
            goal=goal,
            trump=trump,
            trick=_parse_list(fields.get("trick", ""), "trick"),
            talon=_parse_list(fields.get("talon", ""), "talon"),
            talon_mode=fields.get("mode", "suit_only"),
        )

    def __str__(self) -> str:
        hands = " / ".join(format_hand(h, grouped=True) for h in self.hands)
        words = [self.goal]
        if self.goal == "tricks":
            words.append("trump=" + ("NT" if self.trump is None else SUIT_SYMBOLS[self.trump]))
        words.append(("player=" if self.goal == "allpass" else "declarer=") + str(self.declarer))
        words.append(f"leader={self.leader}")
        if self.trick:
            words.append("trick=" + ",".join(str(c) for c in self.trick))
        if self.talon:
            words.append("talon=" + ",".join(str(c) for c in self.talon))
        if self.goal == "allpass" and self.talon_mode != "suit_only":
            words.append(f"mode={self.talon_mode}")
        return f"{hands} | {' '.join(words)}"

    # ------------------------------------------------------------------ checks
    def _validate(self) -> None:
        if len(self.hands) != 3:
            raise SolverError(f"give three hands (first, second, third hand), not {len(self.hands)}")
        if self.goal not in GOALS:
            raise SolverError(f"goal must be one of {', '.join(GOALS)}, not {self.goal!r}")
        if self.talon_mode not in TALON_MODES:
            raise SolverError(
                f"talon mode must be one of {', '.join(TALON_MODES)}, not {self.talon_mode!r}"
            )
        for name, v in (("leader", self.leader), ("declarer", self.declarer)):
            if not isinstance(v, int) or not 0 <= v <= 2:
                raise SolverError(f"{name} must be a player 0, 1 or 2, not {v!r}")
        if self.trump is not None:
            if not 0 <= self.trump <= 3:
                raise SolverError(f"trump must be a suit 0..3 or None, not {self.trump!r}")
            if self.goal != "tricks":
                # Kodeks 3.6.7 (misère) and 3.7.5 (all-pass): no trumps.
                raise SolverError(f"{self.goal} is played without trumps (Kodeks 3.6.7, 3.7.5)")
        seen: dict[int, str] = {}
        for i, h in enumerate(self.hands):
            if not isinstance(h, int) or not 0 <= h <= 0xFFFFFFFF:
                raise SolverError(f"hand {i} must be a 32-bit card mask, not {h!r}")
            for c in cards_of(h):
                if c in seen:
                    raise SolverError(f"card {c} is in {seen[c]} and in hand {i}")
                seen[c] = f"hand {i}"
        for what, cards in (("the trick", self.trick), ("the talon", self.talon)):
            for c in cards:
                if c in seen:
                    raise SolverError(f"card {Card(c)} is in {seen[c]} and in {what}")
                seen[c] = what
        if self.talon:
            if self.goal != "allpass" or self.talon_mode == "unused":
                raise SolverError("talon leads belong to all-pass with the talon in play (rules.md §8.2)")
            if len(self.talon) > 2:
                raise SolverError(f"the talon leads at most 2 tricks, not {len(self.talon)}")
            if self.leader != 0:
                raise SolverError("on a talon trick first hand (player 0) plays first (rules.md §8.2)")
        if len(self.trick) > 2:
            raise SolverError(
                f"a trick in progress holds at most 2 players' cards, not {len(self.trick)}"
            )
        n = self.hands[self.to_play].bit_count()
        for i in range(3):
            p = (self.leader + i) % 3
            want = n - 1 if i < len(self.trick) else n
            have = self.hands[p].bit_count()
            if have != want:
                raise SolverError(
                    f"hand {p} holds {have} cards but should hold {want}: the hands must be "
                    f"equal, less one card for each player who has played to this trick"
                )
        led = self.led_suit
        for i, c in enumerate(self.trick):
            if led is None or (i == 0 and not self.talon) or c >> 3 == led:
                continue
            p = (self.leader + i) % 3
            if self.hands[p] & _suit_mask(led):  # rules.md §6: follow suit
                raise SolverError(
                    f"player {p} played {c} but still holds {SUIT_SYMBOLS[led]}: he had to follow suit"
                )
            if self.trump is not None and c >> 3 != self.trump and self.hands[p] & _suit_mask(self.trump):
                raise SolverError(
                    f"player {p} played {c} but still holds a trump: he had to trump (rules.md §6)"
                )


def _replace(p: Position, **changes: Any) -> Position:
    return dataclasses.replace(p, **changes)


def _parse_mask(text: str, what: str) -> int:
    try:
        return to_mask(text, what)
    except CardError as e:
        raise SolverError(str(e)) from None


def _parse_list(text: str, what: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except CardError as e:
        raise SolverError(f"{what}: {e}") from None


def _parse_player(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SolverError(f"{what} must be a player 0, 1 or 2, not {text!r}") from None
