"""Puzzles (задачи): positions from played deals where one card decides.

A position qualifies when the double-dummy solver proves that one legal card is better than
every other by at least a trick for the player to move — in a game the declarer wants tricks and
his defenders want to hold him down; in misère the declarer wants none and the defenders want to
give him some; on all-pass each player wants as few as he can get (rules.md §6–§8).  A puzzle
keeps the position, the answer, every card's value and the solver's line (the best play to the
end); :func:`verify` solves it again and checks all of it.

``preferans puzzles`` makes a set from records or from bot games and verifies it; the server
serves the set shipped in the package (:func:`shipped`), one puzzle at a time.

Second hand holds ♠A J ♣9 and declares no-trump; he leads with three cards left.  Only the ace of
spades, cashed first, brings his jack home (the king falls under it):

>>> p = puzzle_from(Position.parse("♠K ♦A 7 / ♠A J ♣9 / ♣10 ♦K ♥Q | tricks trump=NT declarer=1 leader=1"),
...                 (0, 7, 0), "10NT")
>>> p.best, p.values, p.gain, p.line[:3], verify(p)
('A♠', {'J♠': 7, 'A♠': 9, '9♣': 7}, 2, ('A♠', 'K♦', 'K♠'), [])
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Container
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..cards import Card
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind
from ..errors import PreferansError
from ..record.build import dealt_talon
from ..record.model import GameRecord
from ..solver import Position, best_moves

__all__ = ["FORMAT", "Puzzle", "deal_puzzle", "find_puzzles", "line_of", "load", "puzzle_from", "record_puzzles",
           "save", "shipped", "verify"]

FORMAT = "preferans-puzzles"


@dataclass(frozen=True)
class Puzzle:
    """One position where one card decides.

    * ``position`` — the solver's text form (:meth:`Position.parse`), hands first, second and
      third hand; ``taken`` — the tricks each hand has taken before it;
    * ``contract`` — ``7♠``, ``misere`` or ``all-pass``; ``declarer`` — its hand (0–2; ``None`` on
      all-pass); ``names`` — the hands' players, when the deal had names;
    * ``best`` — the answer; ``values`` — every legal card and the tricks the focus player ends
      with after it (the declarer; on all-pass the player to move); ``gain`` — tricks the best
      card is ahead of the next best; ``line`` — the solver's best play from the position to the
      end, the answer first;
    * ``source`` — where the deal came from.
    """

    id: str
    position: str
    contract: str
    declarer: int | None
    taken: tuple[int, int, int]
    best: str
    values: dict[str, int]
    gain: int
    line: tuple[str, ...]
    source: str = ""
    names: tuple[str, ...] = ()
    lead: tuple[str, ...] = field(default=())

    @property
    def to_play(self) -> int:
        return Position.parse(self.position).to_play

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["taken"], d["line"], d["names"] = list(self.taken), list(self.line), list(self.names)
        d.pop("lead")
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Puzzle:
        return cls(id=str(d["id"]), position=str(d["position"]), contract=str(d["contract"]),
                   declarer=None if d.get("declarer") is None else int(d["declarer"]),
                   taken=(int(d["taken"][0]), int(d["taken"][1]), int(d["taken"][2])), best=str(d["best"]),
                   values={str(k): int(v) for k, v in d["values"].items()}, gain=int(d["gain"]),
                   line=tuple(str(c) for c in d["line"]), source=str(d.get("source", "")),
                   names=tuple(str(n) for n in d.get("names", ())))  # fmt: skip


def _wants_more(p: Position) -> bool:
    """Does the player to move want the focus player's tricks up?"""
    return (p.goal == "tricks") == (p.to_play == p.declarer)


def _focus_on_mover(p: Position) -> Position:
    return dataclasses.replace(p, declarer=p.to_play) if p.goal == "allpass" else p


def line_of(p: Position) -> tuple[Card, ...]:
    """The solver's best play from ``p`` to the end (on all-pass each player for himself); among
    equal cards the lowest."""
    out: list[Card] = []
    while p.tricks_left:
        p = _focus_on_mover(p)
        values = best_moves(p)
        best = max(values.values()) if _wants_more(p) else min(values.values())
        card = min(c for c, v in values.items() if v == best)
        out.append(card)
        p = p.play(card)
    return tuple(out)


def puzzle_from(
    p: Position, taken: tuple[int, int, int], contract: str, *, source: str = "", names: tuple[str, ...] = (),
    min_gain: int = 1,
) -> Puzzle | None:
    """A puzzle from a position, when one card is at least ``min_gain`` tricks ahead of every other."""
    p = _focus_on_mover(p)
    values = best_moves(p)
    if len(values) < 2:
        return None
    sign = 1 if _wants_more(p) else -1
    ranked = sorted(values.items(), key=lambda cv: -sign * cv[1])
    (best, top), (_, second) = ranked[0], ranked[1]
    gain = sign * (top - second)
    if gain < min_gain:
        return None
    focus = p.declarer
    line = (best, *line_of(p.play(best)))
    text = str(p)
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return Puzzle(
        id=digest, position=text, contract=contract, declarer=None if p.goal == "allpass" else p.declarer,
        taken=taken, best=str(best), values={str(c): taken[focus] + v for c, v in values.items()}, gain=gain,
        line=tuple(str(c) for c in line), source=source, names=names,
    )  # fmt: skip


def find_puzzles(
    deal: Deal, *, source: str = "", names: tuple[str, ...] = (), min_gain: int = 1, min_choices: int = 3,
    min_cards: int = 3, max_cards: int = 7,
) -> list[Puzzle]:
    """Every position of ``deal``'s play (as it was played) where one card decides: at least
    ``min_choices`` legal cards, ``min_cards`` to ``max_cards`` cards in the hand (a position a
    player can read through), and the best ``min_gain`` tricks ahead.  гусарик's all-pass (two
    hands a trick) is not the solver's model and gives none."""
    if deal.players == 2 and deal.kind is DealKind.ALL_PASS:
        return []
    replay = Deal(deal.rules, deal.initial_hands, dealt_talon(deal), dealer=deal.dealer, players=deal.players,
                  min_level=deal.min_level)  # fmt: skip
    out: list[Puzzle] = []
    for seat, a in deal.moves:
        if replay.phase is Phase.PLAY and a < 32 and replay.to_play is not None:
            mover = replay.to_play
            legal = [x for x in replay.legal_actions() if x < 32]
            if len(legal) >= min_choices and min_cards <= replay.hands[mover].bit_count() <= max_cards:
                try:
                    p = Position.from_deal(replay, player=mover)
                except PreferansError:
                    p = None
                if p is not None:
                    active = replay.active
                    taken = (replay.tricks_won[active[0]], replay.tricks_won[active[1]], replay.tricks_won[active[2]])
                    kind = replay.kind
                    contract = "all-pass" if kind is DealKind.ALL_PASS else (
                        "misere" if kind is DealKind.MISERE else str(replay.contract).split(" ")[0])
                    trick = f"trick {replay.trick_number + 1}"
                    where = f"{source}, {trick}" if source else trick
                    hand_names = tuple(names[s] if s < len(names) else "" for s in active) if names else ()
                    found = puzzle_from(p, taken, contract, source=where, names=hand_names, min_gain=min_gain)
                    if found is not None:
                        out.append(found)
        replay.replay_move(seat, a)
    return out


def deal_puzzle(deal: Deal, *, source: str = "", names: tuple[str, ...] = (),
                seen: Container[str] = ()) -> Puzzle | None:  # fmt: skip
    """The one puzzle a deal gives: of its positions where one card decides
    (:func:`find_puzzles`) and not ``seen`` already, the one with most cards to choose from, the
    earliest of those."""
    found = [p for p in find_puzzles(deal, source=source, names=names) if p.position not in seen]
    return max(found, key=lambda p: (len(p.values), -found.index(p))) if found else None


def record_puzzles(record: GameRecord, source: str = "") -> list[tuple[int, Puzzle]]:
    """``(deal number, puzzle)`` for each finished deal of a game record that gives one
    (:func:`deal_puzzle`): the puzzles of a player's own game."""
    from ..record.playback import replay

    rep = replay(record, errors=[])
    out = []
    for n, d in zip(rep.numbers, rep.deals, strict=True):
        if record.deals[n - 1].complete and d.is_over:
            where = f"{source}, deal {n}" if source else f"deal {n}"
            found = deal_puzzle(d, source=where, names=record.players)
            if found is not None:
                out.append((n, found))
    return out


def verify(puzzle: Puzzle) -> list[str]:
    """What is wrong with a puzzle, solved again from its position (empty: it is sound)."""
    try:
        p = _focus_on_mover(Position.parse(puzzle.position))
    except PreferansError as e:
        return [f"{puzzle.id}: the position does not read: {e}"]
    problems: list[str] = []
    values = best_moves(p)
    focus = p.declarer
    totals = {str(c): puzzle.taken[focus] + v for c, v in values.items()}
    if totals != puzzle.values:
        problems.append(f"{puzzle.id}: the values are {totals}, the puzzle says {puzzle.values}")
    sign = 1 if _wants_more(p) else -1
    best = max(totals.values(), key=lambda v: sign * v)
    tops = [c for c, v in totals.items() if v == best]
    if tops != [puzzle.best]:
        problems.append(f"{puzzle.id}: the best cards are {tops}, the puzzle says {puzzle.best}")
    others = [v for c, v in totals.items() if c != puzzle.best]
    gain = min((sign * (best - v) for v in others), default=0)
    if gain < 1 or gain != puzzle.gain:
        problems.append(f"{puzzle.id}: the best card is {gain} trick(s) ahead, the puzzle says {puzzle.gain}")
    try:
        line = [str(c) for c in (Card.parse(puzzle.best), *line_of(p.play(Card.parse(puzzle.best))))]
    except PreferansError as e:
        return [*problems, f"{puzzle.id}: {e}"]
    if tuple(line) != puzzle.line:
        problems.append(f"{puzzle.id}: the line is {' '.join(line)}, the puzzle says {' '.join(puzzle.line)}")
    return problems


def save(puzzles: list[Puzzle], path: str | Path) -> None:
    """Write a set as JSON (``{"format": "preferans-puzzles", "version": 1, "puzzles": [...]}``)."""
    body = {"format": FORMAT, "version": 1, "puzzles": [p.to_dict() for p in puzzles]}
    Path(path).write_text(json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def load(path: str | Path) -> list[Puzzle]:
    """A set written by :func:`save`."""
    return _read(Path(path).read_text(encoding="utf-8"), str(path))


def _read(text: str, source: str) -> list[Puzzle]:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PreferansError(f"{source}: not a puzzle set (format {FORMAT!r})")
    return [Puzzle.from_dict(d) for d in data["puzzles"]]


def shipped() -> list[Puzzle]:
    """The set shipped with the package (made by ``preferans puzzles``; see docs/study.md)."""
    return _read(resources.files(__package__).joinpath("puzzles.json").read_text(encoding="utf-8"), "puzzles.json")
