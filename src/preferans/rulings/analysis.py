"""Post-game analysis (разбор): every decision of every player, priced in whists.

For each deal whose cards are all known, every decision is checked against the
best choice and its cost is written in whists — what it took from the player's
settlement under the record's own conventions (the deal written on the pulka as
it stood, each player's balance settled as the table settles: rules.md §9, §11):

* **cards** — with all hands open (double-dummy, :mod:`preferans.solver`): the
  value before the card (best play from there) and after it; a card that
  lowers its player's value *cost tricks*, and the tricks are turned into
  whists through the scoring (a trick that turns a made game into a failed one
  costs far more than an overtrick);
* **the discard and the contract** — with all hands open too: every discard
  and every contract the declarer could name is solved (the contract table,
  Kodeks 3.3.16.3), each played against two whisters; the cost is the best
  line's value less the chosen one's;
* **auction calls and whist/pass** (and the declarer's concessions) — the
  decider could not see the others' cards, so these are priced *on average
  over the layouts he could not see*, by a :class:`CallPricer` that a face
  passes in (the bots' sampling, :mod:`preferans.bots.appraisal`: this layer
  sits below the bots and does not import them).

Values of cards count *tricks of the focus player* over the whole deal: the
declarer in a game or misère, and on all-pass the player to move (each plays
for himself, rules.md §8).  In a game the declarer wants more, his defenders
fewer; in misère and all-pass the focus player wants fewer.

>>> from preferans import Deal, Rules
>>> deal = Deal.from_cards(Rules.preset("sochi"), hands=[
...     "♠A K Q J 10 9 ♣A K ♦A 7", "♣Q J 10 9 ♦K Q J 10 ♥A K", "♣8 7 ♦9 8 ♥Q J 10 9 ♠8 7"],
...     talon="♥8 7", dealer=2)
>>> for a in ("8♠", "pass", "pass", "7♥", "8♥", "8♠", "whist", "whist"):
...     deal.apply(a)
>>> while not deal.is_over:
...     deal.apply(deal.legal_actions()[0])   # the lowest legal card each time
>>> a = analyze_deal(deal, contract_table=False)
>>> c = a.cards[0]
>>> str(c.card), c.before, c.after, c.loss    # the declarer leads 9♠: nine tricks with best play
('9♠', 9, 9, 0)
>>> [(c.trick, str(c.card), c.before, c.after, c.loss) for c in a.errors]   # the diamond guard thrown
[(7, 'Q♦', 9, 10, 1)]
>>> m = a.mistakes[-1]
>>> m.kind, m.chosen, m.best, m.basis, float(m.cost)   # what the thrown guard cost Boris, in whists
('card', ('Q♦',), (('A♥',), ('K♥',)), 'open', 26.0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from ..actions import Action, Contract
from ..cards import Card
from ..engine.deal import Deal, Phase
from ..engine.observation import Observation
from ..engine.result import DealKind, DealResult, DefenceCall
from ..engine.standing import Standing
from ..errors import PreferansError
from ..i18n import N_
from ..record.build import dealt_talon
from ..record.model import seat_names
from ..rules import Rules
from ..scoring import deal_net
from ..scoring.pulka import Pulka, standing_net
from ..scoring.sheet import Amount
from ..seats import DUMMY
from ..solver import ContractTable, Position, best_moves, contract_table, discard_table, solve

__all__ = [
    "AVERAGE",
    "NOISE",
    "OPEN",
    "Analysis",
    "CallPricer",
    "CardAnalysis",
    "DealAnalysis",
    "Decision",
    "PlayerSummary",
    "analyze",
    "analyze_deal",
    "deal_dict",
    "decision_dict",
    "seat_name",
    "standings",
]

STRAINS = ("♠", "♣", "♦", "♥", "NT")

OPEN = "open"
"""A decision priced with all hands open (double-dummy): exact, in hindsight (при открытых картах)."""

AVERAGE = "average"
"""A decision priced on average over the layouts its decider could not see (в среднем по раскладам)."""

NOISE = 0.5
"""Whists within which two choices priced on average count as equal (the sampling's noise)."""

Choice = tuple[str, ...]
"""A choice as the actions it makes, written as ``str(action)``: ``("K♥",)``, ``("pass",)``, a discard
and the contract ``("7♥", "8♥", "7♠")``."""


class CallPricer(Protocol):
    """Expected net whists of each option of a call whose outcome depends on cards the decider
    could not see (the auction, whist/pass, the declarer's concessions), from what he saw just
    before he decided — his :class:`~preferans.Observation`, never the deal.  ``None`` when it
    prices nothing here (the call stays unpriced)."""

    def __call__(self, obs: Observation) -> Mapping[Action, float] | None: ...


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card played.

    ``seat`` played it; ``player`` chose it (in open play the whister plays his
    partner's cards).  ``focus`` is the seat whose tricks ``before`` / ``after``
    count (the declarer; on all-pass the player to move), over the whole deal.
    ``best`` are the cards that keep the value; ``loss`` is what the card cost
    the player's side in tricks and ``whists`` in whists (0 when nothing).
    """

    trick: int
    seat: int
    player: int
    card: Card
    focus: int
    before: int
    after: int
    best: tuple[Card, ...]
    loss: int
    whists: Amount = 0

    @property
    def is_error(self) -> bool:
        return self.loss > 0


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one player, priced in whists against the best choice.

    * ``move`` — the index in ``deal.moves`` of its (last) action; ``kind`` — ``bid``,
      ``contract`` (the discard and the contract, or the discard alone before a misère),
      ``whist``, ``defence`` (concessions and the defence's choices) or ``card``;
    * ``seat`` — whose turn it was (a card of the partner's open hand: the partner);
      ``player`` — who chose;
    * ``chosen`` and ``options`` — the choices as their actions' texts, each option with
      its cost (0 for a best one), cheapest first; ``cost`` — what ``chosen`` cost;
    * ``basis`` — :data:`OPEN` (exact, all hands open) or :data:`AVERAGE` (expected over the
      layouts the player could not see); ``priced`` is false when nothing priced it;
    * ``tricks`` — cards: the tricks the choice lost (its side's); ``trick`` — its trick's number.
    """

    move: int
    kind: str
    seat: int
    player: int
    chosen: Choice
    cost: Amount | float
    basis: str
    options: tuple[tuple[Choice, Amount | float], ...] = ()
    priced: bool = True
    tricks: int = 0
    trick: int = 0

    @property
    def best(self) -> tuple[Choice, ...]:
        """The cheapest choices."""
        if not self.options:
            return ()
        low = min(c for _, c in self.options)
        return tuple(o for o, c in self.options if c == low)

    @property
    def is_mistake(self) -> bool:
        """It cost something: anything at all with all hands open, more than :data:`NOISE` on average."""
        if not self.priced:
            return False
        return self.cost > (NOISE if self.basis == AVERAGE else 0)


@dataclass(frozen=True)
class DealAnalysis:
    """The analysis of one deal (``skipped`` says why a deal was not analysed)."""

    number: int
    dealer: int
    kind: str
    declarer: int | None = None
    contract: Contract | None = None
    tricks: dict[int, int] = field(default_factory=dict)
    cards: tuple[CardAnalysis, ...] = ()
    table: ContractTable | None = None
    table_seat: int | None = None
    skipped: str = ""
    decisions: tuple[Decision, ...] = ()

    @property
    def errors(self) -> tuple[CardAnalysis, ...]:
        """The cards that cost tricks."""
        return tuple(c for c in self.cards if c.loss)

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The decisions that cost whists (:attr:`Decision.is_mistake`)."""
        return tuple(d for d in self.decisions if d.is_mistake)


@dataclass
class PlayerSummary:
    """Per player over the analysed deals: cards chosen, errors, tricks and whists lost at cards,
    and every decision's cost: with all hands open (``cost_open``) and on average
    (``cost_average``), and the biggest mistakes (deal number, decision), costliest first."""

    name: str
    cards: int = 0
    errors: int = 0
    tricks_lost: int = 0
    whists_lost: Amount = 0
    decisions: int = 0
    mistakes: int = 0
    cost_open: Amount = 0
    cost_average: float = 0.0
    biggest: list[tuple[int, Decision]] = field(default_factory=list)

    @property
    def cost(self) -> float:
        """Every priced decision's cost together, in whists."""
        return float(self.cost_open) + self.cost_average


@dataclass
class Analysis:
    """The analysis of a record: each deal, and a summary per player."""

    players: tuple[str, ...]
    deals: list[DealAnalysis]
    rules: Rules

    @property
    def summary(self) -> list[PlayerSummary]:
        out = [PlayerSummary(n) for n in self.players]
        for d in self.deals:
            for c in d.cards:
                if c.player >= len(out):
                    continue
                s = out[c.player]
                s.cards += 1
                if c.loss:
                    s.errors += 1
                    s.tricks_lost += c.loss
                    s.whists_lost += c.whists
            for x in d.decisions:
                if x.player >= len(out) or not x.priced:
                    continue
                s = out[x.player]
                s.decisions += 1
                if x.basis == OPEN and not isinstance(x.cost, float):
                    s.cost_open += x.cost
                else:
                    s.cost_average += float(x.cost)
                if x.is_mistake:
                    s.mistakes += 1
                    s.biggest.append((d.number, x))
        for s in out:
            s.biggest.sort(key=lambda b: (-float(b[1].cost), b[0], b[1].move))
            del s.biggest[3:]
        return out

    # -- output ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        names = seat_names(self.players)  # гусарик: a card of the dummy's is the dummy's seat (rules.md §16)
        return {
            "rules": self.rules.name,
            "players": list(self.players),
            "noise": NOISE,
            "deals": [deal_dict(d, names) for d in self.deals],
            "summary": [
                {
                    "player": s.name,
                    "cards": s.cards,
                    "errors": s.errors,
                    "tricks_lost": s.tricks_lost,
                    "whists_lost": _json_amount(s.whists_lost),
                    "decisions": s.decisions,
                    "mistakes": s.mistakes,
                    "cost": _whists(s.cost),
                    "cost_open": _whists(s.cost_open),
                    "cost_average": _whists(s.cost_average),
                    "biggest": [{"deal": n, **decision_dict(x)} for n, x in s.biggest],
                }
                for s in self.summary
            ],
        }

    def text(self, *, all_cards: bool = True, lang: str = "en") -> str:
        """A plain-text report in ``lang``: every card (or only the costly ones), every priced
        decision that cost something, and the summary (:mod:`preferans.rulings.report`)."""
        from .report import analysis_text

        return analysis_text(self, all_cards=all_cards, lang=lang)


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's name; the гусарик dummy (seat 2 of two players) is ``dummy``."""
    return names[seat] if 0 <= seat < len(names) else "dummy"


def _json_amount(x: Amount) -> int | str:
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else str(x)
    return x


def _whists(x: Amount | float) -> float:
    """Whists for JSON: a number rounded to hundredths (a reader writes it as players do)."""
    return round(float(x), 2) + 0.0  # no -0.0


def decision_dict(x: Decision) -> dict[str, Any]:
    """A decision in JSON form (seats as numbers)."""
    return {
        "move": x.move,
        "kind": x.kind,
        "seat": x.seat,
        "player": x.player,
        "chosen": list(x.chosen),
        "cost": _whists(x.cost),
        "exact": x.basis == OPEN and Fraction(x.cost).denominator == 1,
        "basis": x.basis,
        "priced": x.priced,
        "mistake": x.is_mistake,
        "tricks": x.tricks,
        "trick": x.trick,
        "best": [list(b) for b in x.best],
        "options": [[list(o), _whists(c)] for o, c in x.options],
    }


def deal_dict(d: DealAnalysis, names: Sequence[str]) -> dict[str, Any]:
    """One deal's analysis in JSON form."""
    out: dict[str, Any] = {
        "number": d.number,
        "dealer": seat_name(names, d.dealer),
        "kind": d.kind,
        "declarer": None if d.declarer is None else seat_name(names, d.declarer),
        "contract": None if d.contract is None else str(d.contract),
        "tricks": {seat_name(names, s): t for s, t in sorted(d.tricks.items())},
        "skipped": d.skipped or None,
        "cards": [
            {
                "trick": c.trick,
                "seat": seat_name(names, c.seat),
                "player": seat_name(names, c.player),
                "card": str(c.card),
                "focus": seat_name(names, c.focus),
                "before": c.before,
                "after": c.after,
                "best": [str(b) for b in c.best],
                "loss_tricks": c.loss,
                "loss_whists": _json_amount(c.whists),
            }
            for c in d.cards
        ],
        "decisions": [decision_dict(x) for x in d.decisions],
        "contract_table": None,
    }
    t = d.table
    if t is not None and d.table_seat is not None:
        out["contract_table"] = {
            "player": seat_name(names, d.table_seat),
            "tricks": {STRAINS[s]: t.tricks[s] for s in range(5)},
            "discards": {STRAINS[s]: [str(c) for c in t.discards[s]] for s in range(5)},
            "misere": t.misere,
            "misere_discard": [str(c) for c in t.misere_discard],
        }
    return out


# ---------------------------------------------------------------------------- the value of outcomes
class _Scorer:
    """What an outcome is worth to each player in whists, as the table scores it: written on the
    pulka's standing when the deal had one (:func:`~preferans.scoring.pulka.standing_net`), else
    alone at the all-pass series' step and with the declarer's bomb (:func:`~preferans.scoring.deal_net`)."""

    def __init__(self, rules: Rules, standing: Standing | None, raspas_step: int, bomb: int) -> None:
        self.rules, self.standing, self.raspas_step, self.bomb = rules, standing, raspas_step, bomb

    def net(self, result: DealResult) -> list[Fraction] | None:
        try:
            if self.standing is not None:
                return standing_net(result, self.rules, self.standing, check=False)
            return deal_net(result, self.rules, raspas_step=self.raspas_step, bomb=self.bomb, check=False)
        except PreferansError:
            return None

    def difference(self, good: DealResult, bad: DealResult, seat: int) -> Amount:
        """``seat``'s balance after ``good`` less after ``bad`` (0 when either cannot be scored)."""
        a, b = self.net(good), self.net(bad)
        if a is None or b is None:
            return 0
        return _whole(a[seat] - b[seat])


def _whole(x: Fraction) -> Amount:
    return x.numerator if x.denominator == 1 else x


def _with_tricks(result: DealResult, focus: int, total: int, decider: int) -> DealResult:
    """The result as if ``focus`` had taken ``total`` tricks; the others give or take the
    difference, the player who decided first (the rest in seat order)."""
    tricks = dict(result.tricks)
    delta = total - tricks.get(focus, 0)
    tricks[focus] = total
    others = [s for s in result.active if s != focus]
    others.sort(key=lambda s: (s != decider, s))
    for s in others:
        if delta == 0:
            break
        take = min(delta, tricks.get(s, 0)) if delta > 0 else max(delta, tricks.get(s, 0) - 10)
        tricks[s] = tricks.get(s, 0) - take
        delta -= take
    return dataclasses.replace(result, tricks=tricks)


def _declared(deal: Deal, contract: Contract, tricks: int, result: DealResult | None) -> DealResult:
    """The outcome had the declarer of ``deal`` played ``contract`` and taken ``tricks``: a misère,
    or a game both defenders whist (the гусарик dummy passes; a checked 10 is not whisted)."""
    decl = deal.declarer
    assert decl is not None
    d1, d2 = deal.defenders
    rest = 10 - tricks
    split = {d1: (rest + 1) // 2, d2: rest // 2}
    common: dict[str, Any] = {
        "players": deal.players, "dealer": deal.dealer, "declarer": decl, "tricks": {decl: tricks, **split},
        "multiplier": result.multiplier if result is not None else deal.multiplier,
        "dark_game": result.dark_game if result is not None else False,
    }  # fmt: skip
    if contract.is_misere:
        half = result is not None and result.misere_half
        return DealResult(DealKind.MISERE, contract=contract, misere_half=half, **common)
    if contract.level == 10 and deal.rules.tens_checked:
        return DealResult(DealKind.GAME, contract=contract, ten_checked=True, **common)
    calls = {d: DefenceCall.PASS if deal.players == 2 and d == DUMMY else DefenceCall.WHIST for d in (d1, d2)}
    return DealResult(DealKind.GAME, contract=contract, defence=calls, **common)


# ---------------------------------------------------------------------------- one deal
def analyze_deal(
    deal: Deal,
    *,
    number: int = 1,
    contract_table: bool = True,
    raspas_step: int = 1,
    bomb: int = 1,
    standing: Standing | None = None,
    calls: CallPricer | None = None,
) -> DealAnalysis:
    """Analyse one deal (played through, all cards known): every decision, and the contract table.

    ``standing`` is the pulka's sheet before the deal (default: the one the deal carries);
    without one, ``raspas_step`` and ``bomb`` price an all-pass or a bombed game as the pulka
    did (see :func:`preferans.scoring.score_deal`).  ``calls`` prices the auction's calls and
    whist/pass (see :class:`CallPricer`); without it those decisions are listed unpriced.
    """
    standing = standing if standing is not None else deal.standing
    replay = Deal(
        deal.rules, deal.initial_hands, dealt_talon(deal), dealer=deal.dealer, players=deal.players,
        min_level=deal.min_level, standing=standing,
    )  # fmt: skip
    result = deal.result if deal.is_over else None
    scorer = _Scorer(deal.rules, standing, raspas_step, bomb)
    kind = deal.kind.value if deal.kind is not None else "unfinished"
    cards: list[CardAnalysis] = []
    decisions: list[Decision] = []
    discard: list[Action] = []
    # гусарик's all-pass is two hands a trick (rules.md §16): not the three-hand solver's model.
    solvable = not (deal.players == 2 and deal.kind == DealKind.ALL_PASS)
    for i, (seat, a) in enumerate(deal.moves):
        phase = replay.phase
        decider = replay.to_act
        legal = replay.legal_actions() if decider is not None and not a.is_irregular else ()
        made: Decision | None = None
        if phase is Phase.PLAY and a < 32:
            if solvable:
                card, made = _card(replay, Card(a), result, scorer, i, len(legal))
                cards.append(card)
        elif phase is Phase.DISCARD and a < 32:
            discard.append(a)
        elif phase is Phase.DECLARE and a.is_bid:
            made = _declaration(replay, tuple(discard), a, legal, result, scorer, i)
        elif len(legal) > 1 and decider is not None and a in legal:
            made = _call(replay, decider, a, legal, calls, i)
        replay.replay_move(seat, a)
        if phase is Phase.DISCARD and replay.phase is Phase.PLAY and len(discard) == 2:
            made = _declaration(replay, tuple(discard), None, (), result, scorer, i)  # a misère as bid
        if made is not None:
            decisions.append(made)
    table = None
    table_seat = deal.declarer
    if contract_table and table_seat is not None:
        table = _table(deal, table_seat)
    tricks = dict(result.tricks) if result is not None else {}
    return DealAnalysis(
        number=number,
        dealer=deal.dealer,
        kind=kind,
        declarer=deal.declarer,
        contract=deal.contract,
        tricks=tricks,
        cards=tuple(cards),
        table=table,
        table_seat=table_seat if table is not None else None,
        decisions=tuple(decisions),
    )


def _table(deal: Deal, seat: int) -> ContractTable | None:
    try:
        return contract_table(deal, seat)
    except PreferansError:
        return None


def _card(
    deal: Deal, card: Card, result: DealResult | None, scorer: _Scorer, move: int, choices: int
) -> tuple[CardAnalysis, Decision | None]:
    seat = deal.to_play
    player = deal.to_act
    assert seat is not None and player is not None
    all_pass = deal.kind == DealKind.ALL_PASS
    focus = seat if all_pass else deal.declarer
    assert focus is not None
    values = best_moves(Position.from_deal(deal, player=seat if all_pass else None))
    # In a game the declarer maximises; in misère and all-pass the focus player minimises.
    wants_max = (deal.kind == DealKind.GAME) == (seat == focus)
    best_value = max(values.values()) if wants_max else min(values.values())
    value = values[card]
    loss = best_value - value if wants_max else value - best_value
    won = deal.tricks_won[focus]
    before, after = won + best_value, won + value

    def price(v: int) -> Amount:
        if v == best_value or result is None:
            return 0
        return scorer.difference(_with_tricks(result, focus, won + best_value, player),
                                 _with_tricks(result, focus, won + v, player), player)  # fmt: skip

    prices = {v: price(v) for v in set(values.values())}
    whists = prices[value]
    best = tuple(c for c, v in values.items() if v == best_value)
    analysed = CardAnalysis(
        trick=deal.trick_number + 1, seat=seat, player=player, card=card, focus=focus,
        before=before, after=after, best=best, loss=loss, whists=whists,
    )  # fmt: skip
    if choices < 2:
        return analysed, None
    lost = {c: (best_value - v if wants_max else v - best_value) for c, v in values.items()}
    options = sorted(((str(c),), prices[v]) for c, v in values.items())
    options.sort(key=lambda o: (o[1], lost[Card.parse(o[0][0])]))
    # Equal costs in whists can still differ in tricks (an overtrick the sheet ignores): the
    # option list keeps the tricks' order, the cost is the whists.
    return analysed, Decision(
        move=move, kind="card", seat=seat, player=player, chosen=(str(card),), cost=whists, basis=OPEN,
        options=tuple(options), tricks=loss, trick=deal.trick_number + 1,
    )  # fmt: skip


def _call(
    deal: Deal, seat: int, action: Action, legal: Sequence[Action], calls: CallPricer | None, move: int
) -> Decision | None:
    phase = deal.phase
    kind = {Phase.BIDDING: "bid", Phase.MISERE_INVITE: "bid", Phase.WHIST: "whist"}.get(phase, "defence")
    values: Mapping[Action, float] | None = None
    if calls is not None:
        try:
            values = calls(deal.observation(seat))
        except PreferansError:
            values = None
    if values and action in values:
        best = max(values.values())
        options = sorted(((str(a),), round(best - v, 6)) for a, v in values.items())
        options.sort(key=lambda o: o[1])
        return Decision(move=move, kind=kind, seat=seat, player=seat, chosen=(str(action),),
                        cost=round(best - values[action], 6), basis=AVERAGE, options=tuple(options))  # fmt: skip
    return Decision(move=move, kind=kind, seat=seat, player=seat, chosen=(str(action),), cost=0.0, basis=AVERAGE,
                    options=tuple(((str(a),), 0.0) for a in legal), priced=False)  # fmt: skip


def _declaration(
    deal: Deal, discard: tuple[Action, ...], contract_action: Action | None, legal: Sequence[Action],
    result: DealResult | None, scorer: _Scorer, move: int,
) -> Decision | None:
    """The discard and the contract, with all hands open: every discard and every contract the
    declarer may name, each solved against two whisters (first hand leading, rules.md §2).

    ``deal`` is just after the discard: at the declaration (``legal`` its legal actions,
    ``contract_action`` the one chosen), or in play when a misère must be played as bid
    (``contract_action`` is ``None``: only the discard was chosen)."""
    decl = deal.declarer
    contract = contract_action.contract if contract_action is not None else deal.contract
    if decl is None or contract is None or len(discard) != 2:
        return None  # a game without the talon (Kodeks 3.3.11): nothing was discarded
    active = deal.active
    me = active.index(decl)
    hands = [deal.hands[s] for s in active]
    try:
        table = discard_table((hands[0], hands[1], hands[2]), discard, me)
    except PreferansError:
        return None

    def value(c: Contract, tricks: int) -> Fraction | None:
        net = scorer.net(_declared(deal, c, tricks, result))
        return None if net is None else net[decl]

    goal = "misere" if contract.is_misere else "tricks"
    kept_tricks = solve(Position(hands=(hands[0], hands[1], hands[2]), declarer=me, goal=goal, trump=contract.trump))
    chosen_value = value(contract, kept_tricks)
    if chosen_value is None:
        return None
    chosen: Choice = (*(str(c) for c in discard), *(() if contract_action is None else (str(contract_action),)))
    options: dict[Choice, Fraction] = {chosen: chosen_value}
    if contract_action is None:  # the misère as bid: the best discard for it
        pair = table.misere_discard
        v = value(contract, table.misere)
        if v is not None:
            options.setdefault((str(pair[0]), str(pair[1])), v)
    for a in legal:
        c = a.contract
        if c is None or not a.is_bid:
            continue
        tricks, pair = (table.misere, table.misere_discard) if c.is_misere else (table.tricks[c.strain],
                                                                                  table.discards[c.strain])
        v = value(c, tricks)
        if v is not None:
            options.setdefault((str(pair[0]), str(pair[1]), str(a)), v)
    top = max(options.values())
    priced = sorted(((o, _whole(top - v)) for o, v in options.items()), key=lambda o: (o[1], o[0] != chosen))
    return Decision(
        move=move, kind="contract", seat=decl, player=decl, chosen=chosen, cost=_whole(top - chosen_value),
        basis=OPEN, options=tuple(priced[:12]),
    )  # fmt: skip


# ---------------------------------------------------------------------------- a whole record
def standings(record: Any, replayed: Any) -> dict[int, tuple[Standing, int]]:
    """The pulka's standing before each deal of a scored record, and the all-pass series' step:
    ``{deal number: (standing, step)}`` for the deals the replay wrote on its sheet in order."""
    pulka = replayed.pulka
    if pulka is None:
        return {}
    fresh = Pulka(record.rules, record.players, first_dealer=record.first_dealer)
    out: dict[int, tuple[Standing, int]] = {}
    results = pulka.results
    helps = pulka.help_choices
    played = [n for n, d in enumerate(record.deals, 1)]
    for n, r, h in zip(played, results, helps, strict=False):
        out[n] = (fresh.standing(), fresh.raspas_step)
        try:
            fresh.record(r, help_to=h)
        except PreferansError:
            break
    return out


def analyze(
    record: Any,
    *,
    contract_table: bool = True,
    progress: Callable[[int, int], None] | None = None,
    deals: Sequence[int] | None = None,
    errors: list[Any] | None = None,
    source: str = "<string>",
    calls: CallPricer | None = None,
) -> Analysis:
    """Analyse every deal of a :class:`~preferans.record.GameRecord` whose cards are all known.

    ``deals`` picks deal numbers (1-based); ``progress(done, total)`` is called
    after each deal.  With ``errors`` (a list) a record that does not replay
    everywhere is analysed where it does, its problems appended to the list.
    ``calls`` prices the auction's calls and whist/pass (:class:`CallPricer`).
    """
    from ..record import replay

    rep = replay(record, source=source, errors=errors)
    before = standings(record, rep)
    chosen = set(deals) if deals is not None else None
    out: list[DealAnalysis] = []
    total = len(record.deals)
    for i, drec in enumerate(record.deals, 1):
        if chosen is not None and i not in chosen:
            continue
        deal = rep.deal(i)
        if drec.sheet:
            out.append(DealAnalysis(i, 0, "sheet", skipped=N_("lines written on the sheet by hand")))
        elif deal is None:
            out.append(DealAnalysis(i, drec.dealer, "broken", skipped=N_("the deal does not replay")))
        elif not drec.complete:
            kind = deal.kind.value if deal.kind is not None else "unfinished"
            out.append(DealAnalysis(i, deal.dealer, kind, deal.declarer, deal.contract,
                                    skipped=N_("some cards are unknown (??)")))  # fmt: skip
        else:
            standing, step = before.get(i, (None, 1))
            out.append(analyze_deal(deal, number=i, contract_table=contract_table, raspas_step=max(1, step),
                                    standing=standing, calls=calls))  # fmt: skip
        if progress is not None:
            progress(i, total)
    return Analysis(tuple(record.players), out, record.rules)

