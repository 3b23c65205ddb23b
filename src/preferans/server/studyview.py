"""What the study pages draw, worked out by the engine: a record's deals step by step, its sheet,
its analysis deal by deal, solver positions and uploads (issue 27).

The browser never replays a move itself: every state it shows — the hands, the talon, the trick,
the calls, the tricks taken — is a :class:`~preferans.Deal` after ``k`` stored moves, made one at
a time by :meth:`~preferans.Deal.replay_move` (the one replay step of records, tables and the
server).  Each function here is plain CPU work on a record given as its JSON text; the server
runs them in its worker processes (:mod:`.work`), never on the event loop.

>>> from preferans.record import dumps, load
>>> text = dumps(load("tests/golden/records/sochi-pulka.prf"), format="json")
>>> game = game_overview(text)
>>> game["players"], [d["kind"] for d in game["deals"]][:2], game["deals"][0]["labels"]["en"]
(['Anna', 'Boris', 'Vera'], ['game', 'not_played'], 'Boris 7♠ made')
>>> steps = deal_steps(text, 1)
>>> len(steps["states"]) == len(steps["moves"]) + 1, steps["states"][0]["phase"], steps["states"][-1]["phase"]
(True, 'bidding', 'over')
>>> steps["moves"][0], steps["states"][1]["calls"]
({'seat': 1, 'action': '6♠', 'stage': 'auction'}, {'1': '6♠'})
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any

from ..cards import Card, cards_of
from ..engine.deal import Deal, Phase
from ..engine.result import DealKind
from ..errors import CardError, PreferansError, RecordError
from ..i18n import LANGS, N_, Msg, text
from ..record import GameRecord, from_json, loads_all, to_json
from ..record.build import dealt_talon
from ..record.playback import Replay, replay
from ..rulings.analysis import DealAnalysis, analyze
from ..rulings.puzzles import Puzzle, record_puzzles
from ..scoring import deal_label
from ..scoring.pulka import Pulka
from ..solver import Position, best_moves

__all__ = [
    "analysis_job",
    "board_job",
    "board_position",
    "board_spec",
    "deal_steps",
    "game_overview",
    "read_upload",
    "read_upload_body",
    "sheet_after",
    "snapshot",
]

MAX_RECORDS = 20
"""An upload may hold several records; the first this many are offered."""


@functools.lru_cache(maxsize=8)
def _replayed(record_json: str) -> tuple[GameRecord, Replay, tuple[str, ...]]:
    """The record of a JSON text, replayed leniently (a worker keeps the last few)."""
    record = from_json(json.loads(record_json))
    problems: list[RecordError] = []
    rep = replay(record, errors=problems)
    return record, rep, tuple(str(p.reason) for p in problems)


def _labels(deal: Deal, names: tuple[str, ...]) -> dict[str, str] | None:
    if not deal.is_over:
        return None
    try:
        label = deal_label(deal.result, names)
    except (PreferansError, IndexError):
        return None
    return {lang: text(label, lang) for lang in LANGS}


def game_overview(record_json: str) -> dict[str, Any]:
    """The record's players, rules, deals (kind, contract, label, steps) and what did not replay."""
    record, rep, problems = _replayed(record_json)
    names = record.players
    deals = []
    for n, d in enumerate(record.deals, 1):
        deal = rep.deal(n)
        entry: dict[str, Any] = {"number": n, "dealer": d.dealer, "sheet": d.sheet, "kind": None, "declarer": None,
                                 "contract": None, "labels": None, "steps": 0, "complete": d.complete and not d.sheet}
        if deal is not None:
            entry.update(kind=deal.kind.value if deal.kind is not None else "unfinished", declarer=deal.declarer,
                         contract=None if deal.contract is None else str(deal.contract), labels=_labels(deal, names),
                         steps=len(deal.moves) + 1)  # fmt: skip
        deals.append(entry)
    pulka = rep.pulka
    settlement = None
    if pulka is not None:
        settlement = [float(x) for x in pulka.settlement().net]
    return {
        "players": list(names),
        "rules": record.rules.name,
        "pool": record.rules.pool_target,
        "scored": record.scored,
        "stopped": record.stopped,
        "headers": {k: v for k, v in record.headers.items() if k in ("event", "site", "date", "round", "table")},
        "deals": deals,
        "settlement": settlement,
        "problems": list(problems),
    }


def snapshot(deal: Deal, calls: dict[int, str]) -> dict[str, Any]:
    """The table as it stands, every hand open: what the viewer draws at one step."""
    phase = deal.phase
    all_pass = deal.kind is DealKind.ALL_PASS
    talon: list[str] = []
    if all_pass and phase in (Phase.PLAY, Phase.OVER):
        led = sum(1 for cards, _ in deal.completed_tricks for s, _ in cards if s < 0)
        led += sum(1 for s, _ in deal.trick if s < 0)
        unused = deal.rules.raspas_talon_for(deal.players) == "unused"
        talon = [str(c) for c in (deal.talon if unused else deal.talon[led:])]
    elif not deal.talon_taken and phase is not Phase.OVER:
        talon = [str(c) for c in deal.talon]
    last = None
    if deal.completed_tricks and not deal.trick:
        cards, winner = deal.completed_tricks[-1]
        last = {"cards": [[s, str(c)] for s, c in cards], "winner": winner}
    position = None
    if phase is Phase.PLAY and not (deal.players == 2 and all_pass):
        try:
            position = str(Position.from_deal(deal))
        except PreferansError:
            position = None
    return {
        "phase": phase.value,
        "to_act": deal.to_act,
        "to_play": deal.to_play,
        "hands": {str(s): [str(c) for c in cards_of(deal.hands[s])] for s in deal.active},
        "talon": talon,
        "discard": [str(c) for c in cards_of(deal.discard)],
        "trick": [[s, str(c)] for s, c in deal.trick],
        "last": last,
        "tricks_won": list(deal.tricks_won),
        "declarer": deal.declarer,
        "contract": None if deal.contract is None else str(deal.contract),
        "open_play": deal.open_play,
        "calls": {str(s): a for s, a in sorted(calls.items())},
        "position": position,
        "active": list(deal.active),
    }


def game_puzzles(record_json: str) -> list[tuple[int, Puzzle]]:
    """The puzzles of a game (one a deal at most, :func:`~preferans.rulings.puzzles.record_puzzles`):
    ``(deal number, puzzle)``, in the deals' order (a worker job)."""
    return record_puzzles(from_json(json.loads(record_json)))


def deal_steps(record_json: str, number: int) -> dict[str, Any]:
    """Deal ``number`` (1-based) step by step: its moves, and the table after each of them
    (``states[k]`` after ``k`` moves), its result and what it wrote on the sheet."""
    record, rep, _ = _replayed(record_json)
    if not 1 <= number <= len(record.deals):
        raise RecordError(f"deal: 1..{len(record.deals)}, not {number}")
    done = rep.deal(number)
    if done is None:
        raise RecordError(f"deal {number} does not replay")
    drec = record.deals[number - 1]
    deal = Deal(done.rules, done.initial_hands, dealt_talon(done), dealer=done.dealer, players=done.players,
                min_level=done.min_level)  # fmt: skip
    calls: dict[int, str] = {}
    states = [snapshot(deal, calls)]
    moves = []
    for i, (seat, a) in enumerate(done.moves):
        phase = deal.phase
        stage = drec.stages[i] if i < len(drec.stages) else "play"
        who = seat if seat is not None else deal.to_act
        # a card is shown as its holder's (in open play the whister plays his partner's cards)
        holder = deal.to_play if a.is_card and phase is Phase.PLAY and deal.to_play is not None else who
        deal.replay_move(seat, a)
        moves.append({"seat": holder, "action": str(a), "stage": stage} | ({"by": who} if holder != who else {}))
        if phase in (Phase.BIDDING, Phase.MISERE_INVITE, Phase.WHIST, Phase.DECLARE) and not a.is_card:
            calls[who] = str(a)
        if deal.phase is Phase.PLAY and phase is not Phase.PLAY:
            calls.clear()  # the calls' bubbles stay until the first card
        states.append(snapshot(deal, calls))
    result = None
    if done.is_over:
        r = done.result
        entries = drec.entries
        if entries is None and rep.pulka is not None and number <= len(rep.pulka.sheet.history):
            entries = rep.pulka.sheet.history[number - 1].entries
        result = {
            "labels": _labels(done, record.players),
            "kind": r.kind.value,
            "tricks": {str(s): t for s, t in r.tricks.items()},
            "written": [[e.column, e.player, float(e.amount), e.on, e.why] for e in entries or ()],
        }
    return {
        "number": number,
        "players": done.players,
        "dealer": done.dealer,
        "active": list(done.active),
        "min_level": done.min_level,
        "talon": [str(c) for c in dealt_talon(done)],
        "moves": moves,
        "states": states,
        "result": result,
    }


def sheet_after(record_json: str, deals: int, lang: str) -> str:
    """The pulka as it stood after its first ``deals`` deals, as the paper sheet (SVG)."""
    record, rep, _ = _replayed(record_json)
    pulka = rep.pulka
    fresh = Pulka(record.rules, record.players, first_dealer=record.first_dealer)
    if pulka is not None:
        for r, h in list(zip(pulka.results, pulka.help_choices, strict=True))[: max(0, deals)]:
            fresh.record(r, help_to=h)
        if deals >= len(record.deals) and record.stopped:
            fresh.stop()
    return fresh.svg(lang if lang in LANGS else "en")


def analysis_job(record_json: str, number: int, calls: bool = True) -> DealAnalysis:
    """One deal's analysis (the server's analysis pool runs the deals one by one, to show progress)."""
    record, _, _ = _replayed(record_json)
    pricer = None
    if calls:
        from ..bots.appraisal import CallAppraiser

        pricer = CallAppraiser(record.rules)
    return analyze(record, deals=[number], errors=[], calls=pricer).deals[0]


def read_upload_body(raw: bytes) -> dict[str, Any]:
    """An upload request's body ``{"name", "text"}``: :func:`read_upload`, with the name."""
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        return {"error": {"line": 0, "deal": 0, "reason": "the request is not a JSON object", "source": ""}}
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        return {"error": {"line": 0, "deal": 0, "reason": "give the record's text", "source": ""}}
    name = str(body.get("name") or "record")[:128]
    return {**read_upload(body["text"], name), "name": name}


def read_upload(text_: str, name: str) -> dict[str, Any]:
    """An uploaded record (text or JSON), read leniently: ``{"records": [JSON twins], "problems": [...]}``,
    or ``{"error": …}`` naming the line or field when nothing can be read."""
    source = name or "record"
    try:
        records = loads_all(text_, source=source, lenient=True)
    except RecordError as e:
        return {"error": {"line": e.line, "deal": e.deal, "reason": str(e.reason), "source": e.source}}
    except PreferansError as e:
        return {"error": {"line": 0, "deal": 0, "reason": str(e), "source": source}}
    if not records:
        return {"error": {"line": 0, "deal": 0, "reason": "no record in the file", "source": source}}
    out = []
    problems = []
    for r in records[:MAX_RECORDS]:
        out.append(to_json(r))
        problems.append([{"line": e.line, "deal": e.deal, "reason": str(e.reason)} for e in r.errors])
    return {"records": out, "problems": problems}


# ---------------------------------------------------------------------------- the solver board
_HAND_WORDS = (N_("first hand"), N_("second hand"), N_("third hand"))
_GOALS = ("tricks", "misere", "allpass")
_TRUMPS = {"♠": 0, "♣": 1, "♦": 2, "♥": 3, "NT": None, None: None}


def _words(msg: Msg) -> dict[str, str]:
    return {lang: text(msg, lang) for lang in LANGS}


def _cards(value: Any, what: Msg, problems: list[Msg]) -> list[Card]:
    out: list[Card] = []
    if not isinstance(value, list) or len(value) > 12:
        problems.append(Msg("{what}: give a list of cards", what=what))
        return out
    for item in value:
        try:
            out.append(Card.parse(str(item)[:4]))
        except CardError:
            problems.append(Msg("{what}: {card} is not a card", what=what, card=str(item)[:8]))
    return out


def board_position(spec: Any) -> tuple[Position | None, list[Msg]]:
    """The position a board request describes, or what is wrong with it (each a :class:`~preferans.i18n.Msg`).

    ``spec``: ``hands`` (three lists of cards: first, second, third hand), ``goal`` (``tricks``,
    ``misere``, ``allpass``), ``trump`` (``♠ ♣ ♦ ♥`` or ``NT``), ``declarer`` and ``leader``
    (0–2), ``trick`` (cards on the table, from the leader), ``talon`` (all-pass: the cards that
    still lead) and ``mode`` (``suit_only``, ``participates``, ``unused``).

    >>> p, problems = board_position({"hands": [["A♠", "K♠"], ["Q♠", "7♠"], ["10♠", "A♠"]], "goal": "tricks"})
    >>> p, [text(m, "ru") for m in problems]
    (None, ['Карта A♠ сдана дважды'])
    >>> p, problems = board_position({"hands": [["A♠", "K♠"], ["Q♠", "7♠"], ["10♠"]], "goal": "misere"})
    >>> [text(m, "ru") for m in problems]
    ['У всех рук должно быть поровну карт, а сейчас: у первой 2, у второй 2, у третьей 1']
    >>> p, _ = board_position({"hands": [["A♠", "K♠"], ["Q♠", "7♠"], ["10♠", "9♠"]], "leader": 1})
    >>> str(p)
    '♠A K / ♠Q 7 / ♠10 9 | tricks trump=NT declarer=0 leader=1'
    """
    problems: list[Msg] = []
    if not isinstance(spec, dict):
        return None, [Msg("give the position as an object")]
    hands_in = spec.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != 3:
        return None, [Msg("give three hands: first, second and third hand")]
    seen: dict[int, Msg] = {}
    masks = [0, 0, 0]
    for i, h in enumerate(hands_in):
        for c in _cards(h, Msg(_HAND_WORDS[i]), problems):
            if c in seen:
                problems.append(Msg("Card {card} is dealt twice", card=str(c)))
            seen[c] = Msg(_HAND_WORDS[i])
            masks[i] |= 1 << c
    trick = _cards(spec.get("trick", []), Msg("the trick"), problems)
    talon = _cards(spec.get("talon", []), Msg("the talon"), problems)
    for c in (*trick, *talon):
        if c in seen:
            problems.append(Msg("Card {card} is dealt twice", card=str(c)))
        seen[c] = Msg("the trick")
    goal = spec.get("goal", "tricks")
    if goal not in _GOALS:
        problems.append(Msg("Choose the game: a contract, misère or all-pass"))
        goal = "tricks"
    trump_text = spec.get("trump")
    if trump_text not in _TRUMPS:
        problems.append(Msg("Trumps: ♠ ♣ ♦ ♥ or no-trump"))
    trump = _TRUMPS.get(trump_text) if goal == "tricks" else None
    leader, declarer = spec.get("leader", 0), spec.get("declarer", 0)
    for v in (leader, declarer):
        if v not in (0, 1, 2):
            problems.append(Msg("Choose first, second or third hand"))
    mode = spec.get("mode", "suit_only")
    if mode not in ("suit_only", "participates", "unused"):
        mode = "suit_only"
    if talon and goal != "allpass":
        problems.append(Msg("The talon leads tricks only on all-pass"))
    if len(talon) > 2 or len(trick) > 2:
        problems.append(Msg("At most two cards of the talon, and two on the table"))
    if problems:
        return None, problems
    lead = 0 if talon else int(leader)
    counts = [masks[i].bit_count() + (1 if (i - lead) % 3 < len(trick) else 0) for i in range(3)]
    if len(set(counts)) != 1:
        problems.append(Msg("The hands must hold as many cards each: first hand {a}, second hand {b}, third hand {c}",
                            a=counts[0], b=counts[1], c=counts[2]))  # fmt: skip
    elif counts[0] == 0:
        problems.append(Msg("Give every hand at least one card"))
    elif counts[0] > 10:
        problems.append(Msg("At most 10 cards a hand"))
    if problems:
        return None, problems
    try:
        pos = Position(hands=(masks[0], masks[1], masks[2]), leader=lead, declarer=int(declarer), goal=goal,
                       trump=trump, trick=tuple(trick), talon=tuple(talon),
                       talon_mode=mode if goal == "allpass" else "suit_only")  # fmt: skip
    except PreferansError as e:
        return None, [Msg("This position cannot be played: {reason}", reason=str(e))]
    return pos, []


def board_spec(p: Position) -> dict[str, Any]:
    """A position in the board's form (the inverse of :func:`board_position`)."""
    return {
        "hands": [[str(c) for c in cards_of(h)] for h in p.hands],
        "goal": p.goal,
        "trump": "NT" if p.trump is None else "♠♣♦♥"[p.trump],
        "declarer": p.declarer,
        "leader": p.leader,
        "trick": [str(c) for c in p.trick],
        "talon": [str(c) for c in p.talon],
        "mode": p.talon_mode,
    }


def board_job(spec: Any, play: str | None, taken: list[int]) -> dict[str, Any]:
    """Solve a board position, after playing ``play`` when given: each legal card's value — the
    tricks the focus player ends with (the declarer; on all-pass the player to move, who plays for
    himself) — and the best cards.  ``taken`` are the tricks each hand has taken so far."""
    if isinstance(spec, str):
        try:
            pos: Position | None = Position.parse(spec)
            problems: list[Msg] = []
        except PreferansError as e:
            pos, problems = None, [Msg("This position cannot be played: {reason}", reason=str(e))]
    else:
        pos, problems = board_position(spec)
    if pos is None:
        return {"problems": [_words(m) for m in problems]}
    taken = [int(x) for x in taken[:3]] + [0] * (3 - len(taken[:3]))
    winner: int | None = None
    completed: list[list[Any]] = []
    if play is not None:
        try:
            card = Card.parse(str(play)[:4])
        except CardError:
            return {"problems": [_words(Msg("{what}: {card} is not a card", what=Msg("the play"), card=str(play)[:8]))]}
        if card not in pos.legal_moves():
            legal = " ".join(str(c) for c in pos.legal_moves())
            return {"problems": [_words(Msg("{card} cannot be played now: legal cards are {legal}", card=str(card),
                                            legal=legal))]}  # fmt: skip
        if len(pos.trick) == 2:
            completed = [[-1, str(c)] for c in pos.talon[:1]]
            completed += [[(pos.leader + i) % 3, str(c)] for i, c in enumerate((*pos.trick, card))]
            winner = pos.trick_winner((*pos.trick, card))
            if winner is not None:
                taken[winner] += 1
        pos = pos.play(card)
    if pos.goal == "allpass":
        pos = dataclasses.replace(pos, declarer=pos.to_play)  # each plays for himself (rules.md §8)
    out: dict[str, Any] = {"position": board_spec(pos), "text": str(pos), "to_play": pos.to_play, "taken": taken,
                           "winner": winner, "completed": completed, "over": pos.tricks_left == 0 and not pos.trick}
    if out["over"]:
        return {**out, "values": {}, "best": [], "value": taken[pos.declarer]}
    values = best_moves(pos)
    focus = pos.declarer
    totals = {str(c): taken[focus] + v for c, v in values.items()}
    # the declarer wants more in a game; the misère declarer and the all-pass player fewer;
    # the defenders the other way round
    wants_more = (pos.goal == "tricks") == (pos.to_play == focus)
    best_value = max(totals.values()) if wants_more else min(totals.values())
    return {**out, "values": totals, "best": [c for c, v in totals.items() if v == best_value], "value": best_value,
            "focus": focus}  # fmt: skip
