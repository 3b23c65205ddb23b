"""The pulka (пулька) as a whole game: deals in order, written on one sheet, then settled.

A :class:`Pulka` keeps what lasts between deals (rules.md §8.3, §10, §11.5):
the dealer's rotation (Kodeks 3.2.2, 3.7.7), the series of consecutive
all-passes with its price (3.7.4) and exit level, classic bombs (3.3.19),
the pool target with help (помощь) and mountain write-off, and the end of
the game.  Deals come from the engine (``pulka.record(deal.result)``) or are
entered by hand (:meth:`Pulka.game`, :meth:`Pulka.misere`, :meth:`Pulka.all_pass`).

>>> p = Pulka(Rules.preset("sochi"), "ABC")
>>> p.next_dealer, p.min_level
(0, 6)
>>> _ = p.game("B", "7♠", defence={"C": "whist", "A": "pass"}, tricks={"B": 7, "C": 2, "A": 1})
>>> _ = p.all_pass({"A": 0, "B": 4, "C": 6})
>>> p.sheet.pool, p.sheet.mountain, p.raspas_series, p.next_dealer
([1, 4, 0], [0, 4, 6], 1, 2)
>>> [str(x) for x in p.settlement().net]
['80/3', '14/3', '-94/3']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from ..actions import Contract
from ..engine.result import DealKind, DealResult, DefenceCall
from ..engine.standing import Standing
from ..errors import PreferansError, ScoreError
from ..i18n import Call, Msg, Translator, preset_name
from ..rules import Rules
from ..seats import name_problem
from . import DealScore, Entry, Settlement, Sheet, deal_label, entries_net, score_deal, settle
from .sheet import Amount
from .svg_sheet import Layout, sheet_svg

__all__ = ["Pulka", "standing_net"]

_REGULAR = frozenset((DealKind.GAME, DealKind.NOT_PLAYED, DealKind.MISERE, DealKind.ALL_PASS))

Seat = int | str
SheetLine = tuple[str, Seat, "Amount | str"] | tuple[str, Seat, "Amount | str", Seat]
"""A line written by hand: (column, player, amount) or ("whists", player, amount, on)."""


class Pulka:
    """A game of preferans on one sheet.

    ``players`` is 3, 4 or the players' names (3 or 4 of them; default names
    are ``A B C D``).  ``first_dealer`` is the seat (or name) who deals first.

    Useful attributes: :attr:`sheet`, :attr:`next_dealer`, :attr:`min_level`
    (the lowest game allowed in the next deal, from ``raspas_exit_levels``),
    :attr:`raspas_series` / :attr:`raspas_step`, :attr:`bombs`, :attr:`is_over`.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | Sequence[str] = 3,
        *,
        first_dealer: Seat = 0,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        if isinstance(players, int):
            if players not in (2, 3, 4):
                raise ScoreError(f"players: a pulka is for 2 (гусарик), 3 or 4 players, not {players}")
            names: tuple[str, ...] = tuple("ABCD"[:players])
        else:
            names = tuple(players)
        if len(names) not in (2, 3, 4):
            raise ScoreError(f"players: a pulka is for 2 (гусарик), 3 or 4 players, not {len(names)}")
        if len(set(names)) != len(names):
            raise ScoreError(Msg("players: names must be distinct, not {names}", names=", ".join(names)))
        for n in names:
            problem = name_problem(n)
            if problem is not None:
                raise ScoreError(f"players: {problem}")
        self.rules.check_players(len(names))
        self.names = names
        self.first_dealer = self.seat(first_dealer)
        self.results: list[DealResult] = []
        self._help: list[int | None] = []
        self._reset()

    def _reset(self) -> None:
        self.sheet = Sheet(self.names)
        self.next_dealer = self.first_dealer
        self.raspas_series = 0
        self.bombs: list[int] = [1] * len(self.names)
        self._stopped = False

    # -- seats ------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.names)

    def seat(self, who: Seat) -> int:
        """A seat number from a seat or a player's name."""
        if isinstance(who, int) and not isinstance(who, bool):
            if 0 <= who < len(self.names):
                return who
        elif isinstance(who, str) and who in self.names:
            return self.names.index(who)
        raise ScoreError(f"player: {who!r} is not at this table ({', '.join(self.names)})")

    # -- the state between deals --------------------------------------------------------
    @property
    def raspas_step(self) -> int:
        """The step an all-pass dealt next would have in its series (1 = first)."""
        return self.raspas_series + 1

    @property
    def min_level(self) -> int:
        """The lowest game allowed in the next deal (exit from all-pass, rules.md §8.3)."""
        k = self.raspas_series
        if k == 0:
            return 6
        levels = self.rules.raspas_exit_levels
        return levels[min(k, len(levels)) - 1]

    def standing(self) -> Standing:
        """The sheet as everybody at the table sees it before the next deal (a value that
        deals carry, so every seat's observation shows it: :class:`~preferans.engine.standing.Standing`).

        >>> p = Pulka(Rules.preset("sochi"), "ABC")
        >>> _ = p.all_pass({"A": 0, "B": 4, "C": 6})
        >>> s = p.standing()
        >>> s.pool, s.mountain, s.raspas_step, s.deals
        ((1, 0, 0), (0, 4, 6), 2, 1)
        """
        sheet = self.sheet
        return Standing(
            pool=tuple(sheet.pool), mountain=tuple(sheet.mountain), whists=tuple(tuple(r) for r in sheet.whists),
            pool_target=self.rules.pool_target, raspas_step=self.raspas_step,
            bombs=tuple(self.bombs) if self.rules.bombs else (),
            deals=sum(r.kind is not DealKind.SHEET for r in self.results),
        )  # fmt: skip

    def closed(self, seat: Seat) -> bool:
        """Has this player filled his pool to the target (закрыл пулю)?"""
        return self.sheet.pool[self.seat(seat)] >= self.rules.pool_target

    @property
    def is_over(self) -> bool:
        """Has the game ended by ``rules.end_condition`` (or by :meth:`stop`)?"""
        if self._stopped:
            return True
        cond = self.rules.end_condition
        target = self.rules.pool_target
        pools = self.sheet.pool
        if cond == "all_closed":
            return all(p >= target for p in pools)
        if cond == "deals":
            return sum(r.kind is not DealKind.SHEET for r in self.results) >= self.rules.max_deals
        if cond == "pool_sum":  # rules.md §10 (house agreement): the pools together reach n × target
            return sum(pools) >= target * len(pools)
        return False  # "agreement": only stop() ends it

    def stop(self) -> None:
        """End the game by agreement; unclosed pools are settled as they are (rules.md §10)."""
        self._stopped = True

    # -- recording deals ---------------------------------------------------------------------
    def record(self, result: DealResult, *, help_to: Seat | None = None) -> DealScore:
        """Write one deal on the sheet and move on to the next deal.

        Nothing changes if the outcome is impossible (:class:`ScoreError`).
        ``help_to`` names whom to help when ``help_target="choice"``.
        """
        if self.is_over and result.kind is not DealKind.SHEET:
            raise ScoreError(Msg("the pulka is over: settle it, or undo the last deal"))
        helped = None if help_to is None else self.seat(help_to)
        score = self._write(result, helped)
        self.results.append(result)
        self._help.append(helped)
        return score

    def undo(self) -> DealResult:
        """Take back the last deal (the sheet is rebuilt from the others)."""
        if not self.results:
            raise ScoreError(Msg("undo: no deal to take back"))
        last = self.results.pop()
        self._help.pop()
        self._reset()  # undo also reopens a game stopped by agreement
        for r, h in zip(self.results, self._help, strict=True):
            self._write(r, h)
        return last

    def svg(self, lang: str = "en", layout: Layout = "wide") -> str:
        """The paper sheet with its settlement, as SVG (:mod:`preferans.scoring.svg_sheet`), in ``lang``,
        ``wide`` or for a ``phone``."""
        r = self.rules
        t = Translator(lang)
        title = t("Pulka: {rules}, {players} players, pool {pool}, {deals}", rules=preset_name(r.name, lang),
                  players=self.players,
                  pool=r.pool_target, deals=t.n("{n} deal", "{n} deals", len(self.results)))  # fmt: skip
        return sheet_svg(self.sheet, self.settlement(), pool_target=r.pool_target, title=title, lang=lang,
                         layout=layout)

    _repr_svg_ = svg  # shown as the sheet in notebooks

    @property
    def help_choices(self) -> tuple[int | None, ...]:
        """The ``help_to`` given with each recorded deal (``None`` when not given)."""
        return tuple(self._help)

    def settlement(self) -> Settlement:
        """Settle the sheet as it stands (rules.md §11), whether or not the pools are closed."""
        return settle(self.sheet, self.rules)

    def _write(self, result: DealResult, help_to: int | None) -> DealScore:
        rules = self.rules
        n = len(self.names)
        if result.players != n:
            raise ScoreError(f"players: the deal had {result.players} players, the pulka has {n}")
        kind = result.kind
        decl = result.declarer
        if kind in (DealKind.GAME, DealKind.NOT_PLAYED) and result.contract is not None:
            need = self.min_level
            if result.contract.level < need:  # rules.md §8.3 exit levels
                raise ScoreError(Msg(
                    "contract: after {count} all-passes in a row the lowest game is {need} "
                    "(raspas_exit_levels={levels}), not {contract}", count=self.raspas_series, need=need,
                    levels=",".join(str(x) for x in rules.raspas_exit_levels), contract=Call(str(result.contract))))
        step = self.raspas_step if kind is DealKind.ALL_PASS else 0
        entries = _written(result, rules, self.sheet.pool, self.sheet.mountain, self.raspas_step,
                           self.bombs if rules.bombs else (), help_to)
        score = DealScore(
            len(self.sheet.history) + 1,
            tuple(entries),
            result.dealer,
            deal_label(result, self.names),
            step,
        )
        self.sheet.write(score)
        # -- what lasts: series, bombs, the deal --------------------------------------------
        if kind not in _REGULAR:
            pass  # an irregular deal (void, penalty) neither continues nor ends a series
        elif kind is DealKind.ALL_PASS:
            self.raspas_series += 1
            if rules.bombs:
                coeff = max(2, result.multiplier)
                for s in result.bombs_earned:
                    self.bombs[s] = min(self.bombs[s] * coeff, rules.bomb_limit)
        else:
            if rules.bombs and decl is not None and self.bombs[decl] > 1:
                self.bombs[decl] = 1  # the bomb is spent on the holder's game
            if _ends_series(result, rules):
                self.raspas_series = 0
        if kind is DealKind.SHEET:
            pass  # not a deal: the dealer and the series stay as they were
        elif kind is DealKind.VOID:
            self.next_dealer = result.dealer  # the same dealer deals again (Kodeks 3.2.2)
        elif kind is DealKind.ALL_PASS and not rules.deal_moves_after_raspas:
            self.next_dealer = result.dealer  # a house agreement: Kodeks 3.7.7 moves the deal on
        else:
            self.next_dealer = (result.dealer + 1) % n  # Kodeks 3.2.2
        return score

    # -- entering outcomes by hand ----------------------------------------------------------------
    def write(self, lines: Iterable[SheetLine]) -> DealScore:
        """Write lines on the sheet by hand — ``("pool", "A", 3)``, ``("whists", "C", 10, "A")`` —
        to enter a paper sheet in progress or make a correction.  They are kept, undone and saved
        like a deal, but move neither the dealer nor the all-pass series, and help nobody.

        >>> p = Pulka(Rules(), "ABC")
        >>> _ = p.write([("pool", "A", 3), ("whists", "C", 10, "A")])
        >>> p.sheet.pool, p.sheet.whists[2][0], p.next_dealer
        ([3, 0, 0], 10, 0)
        """
        out: list[tuple[str, int, Fraction, int]] = []
        for line in lines:
            column, who, amount = line[0], line[1], line[2]
            on = self.seat(line[3]) if len(line) > 3 else -1
            try:
                value = Fraction(str(amount))
            except (ValueError, ZeroDivisionError):
                raise ScoreError(f"sheet: {amount!r} is not a number such as 3, -5 or 7/2") from None
            out.append((column, self.seat(who), value, on))
        result = DealResult(DealKind.SHEET, self.players, self.next_dealer, sheet=tuple(out))
        return self.record(result)


    def _tricks(self, tricks: Mapping[Seat, int] | None) -> dict[int, int]:
        return {self.seat(k): int(v) for k, v in (tricks or {}).items()}

    def game(
        self,
        declarer: Seat,
        contract: str | Contract,
        *,
        defence: Mapping[Seat, str | DefenceCall] | None = None,
        tricks: Mapping[Seat, int] | None = None,
        dealer: Seat | None = None,
        open_play: bool = False,
        multiplier: int = 1,
        conceded: int = 0,
        talon: Iterable[int] = (),
        help_to: Seat | None = None,
        dealer_whist: bool = False,
    ) -> DealScore:
        """Record a trick game entered by hand.

        Without ``tricks`` the game was not played (both passed, half-whist,
        «за своими»); a 10-game with tricks and no ``defence`` was checked.
        """
        try:
            c = contract if isinstance(contract, Contract) else Contract.parse(contract)
        except PreferansError as e:
            raise ScoreError(f"contract: {e}") from None
        if c.is_misere:
            raise ScoreError("contract: record a misère with Pulka.misere()")
        d = self.next_dealer if dealer is None else self.seat(dealer)
        calls = {self.seat(k): DefenceCall(v) for k, v in (defence or {}).items()}
        t = self._tricks(tricks)
        checked = c.level == 10 and not calls and bool(t) and not conceded
        if checked and not self.rules.tens_checked:
            raise ScoreError("defence: ten_mode is 'whisted': give the defenders' calls on a 10")
        kind = DealKind.GAME if (t or conceded) else DealKind.NOT_PLAYED
        lone = [s for s, v in calls.items() if v is DefenceCall.WHIST]
        za = kind is DealKind.NOT_PLAYED and len(lone) == 1
        result = DealResult(
            kind, self.players, d, self.seat(declarer), c,
            defence=calls, open_play=open_play, tricks=t, ten_checked=checked,
            za_svoimi=za, conceded=conceded, multiplier=multiplier, talon=tuple(talon),
            dealer_whist=dealer_whist,
        )  # fmt: skip
        return self.record(result, help_to=help_to)

    def misere(
        self,
        declarer: Seat,
        tricks: int | Mapping[Seat, int],
        *,
        dealer: Seat | None = None,
        half_with_dealer: bool = False,
        multiplier: int = 1,
        help_to: Seat | None = None,
    ) -> DealScore:
        """Record a misère: the declarer's tricks (or everybody's)."""
        d = self.next_dealer if dealer is None else self.seat(dealer)
        s = self.seat(declarer)
        t = {s: tricks} if isinstance(tricks, int) else self._tricks(tricks)
        result = DealResult(
            DealKind.MISERE, self.players, d, s, Contract(0),
            tricks=t, misere_half=half_with_dealer, multiplier=multiplier,
        )  # fmt: skip
        return self.record(result, help_to=help_to)

    def all_pass(
        self,
        tricks: Mapping[Seat, int],
        *,
        dealer_tricks: int = 0,
        dealer: Seat | None = None,
        multiplier: int = 1,
        bombs_earned: Iterable[Seat] = (),
        help_to: Seat | None = None,
    ) -> DealScore:
        """Record an all-pass: every active player's tricks (and the 4-handed dealer's)."""
        d = self.next_dealer if dealer is None else self.seat(dealer)
        result = DealResult(
            DealKind.ALL_PASS, self.players, d, tricks=self._tricks(tricks),
            dealer_tricks=dealer_tricks, multiplier=multiplier,
            bombs_earned=tuple(self.seat(b) for b in bombs_earned),
        )  # fmt: skip
        return self.record(result, help_to=help_to)


def _written(
    result: DealResult, rules: Rules, pool: Sequence[Amount], mountain: Sequence[Amount], raspas_step: int,
    bombs: Sequence[int], help_to: int | None, *, check: bool = True,
) -> list[Entry]:
    """The lines a deal writes on a sheet with these pools and mountains: the all-pass at its
    step of the series, the declarer's bomb, pool past the target moved as help or written
    off the mountain (rules.md §10).  What :meth:`Pulka.record` writes and
    :func:`standing_net` values — one place for both."""
    kind = result.kind
    decl = result.declarer
    bomb = 1
    if bombs and decl is not None and kind is not DealKind.ALL_PASS:
        bomb = bombs[decl]  # Kodeks 3.3.19; Lesnoy fn. 33: bombs × dark
    step = raspas_step if kind is DealKind.ALL_PASS else 1
    entries = score_deal(result, rules, raspas_step=step, bomb=bomb, check=check)
    if kind is DealKind.SHEET:  # lines written by hand stand as written
        return entries
    return _close_pools(entries, rules, pool, mountain, help_to)


def standing_net(result: DealResult, rules: Rules, standing: Standing, *, check: bool = True) -> list[Fraction]:
    """What one deal is worth to each player when written on a pulka that stands as
    ``standing``: the change of every player's final settlement (rules.md §11.2), with the
    lines :meth:`Pulka.record` would write — the all-pass at the series' step, the
    declarer's bomb, the pool past the target as help (помощь) or a mountain write-off.
    Without a pulka around the deal the same is :func:`preferans.scoring.deal_net`.

    Worked example (Leningrad, 3 players, target 20): B plays 6♠ and makes it, both
    defenders whisting and taking two tricks each.  Alone, B's 2 pool points are worth
    20 × (2 − 2/3) = 26⅔ whists to him, less the 2 × 2 × 2 = 8 whists each defender
    writes on him: +10⅔.  With B's pool closed the 2 points help A (the lowest open
    pool) and B writes 2 × 20 = 40 whists on A: 40 − 20 × 2/3 − 16 = +10⅔ again —
    help at ``help_whists_per_point = k_pool`` is neutral (rules.md §11.4), in every
    preset.  A house rule of 10 whists a point makes helping worth less than writing:
    20 − 13⅓ − 16 = −9⅓, and B loses by making his game.

    >>> from preferans.actions import Contract
    >>> from preferans.engine.result import DealResult, DefenceCall as D
    >>> from preferans.scoring import deal_net
    >>> r = DealResult(DealKind.GAME, 3, dealer=0, declarer=1, contract=Contract(6, 0),
    ...                defence={2: D.WHIST, 0: D.WHIST}, tricks={1: 6, 2: 2, 0: 2})
    >>> rules = Rules.preset("leningrad")
    >>> s = Standing((5, 20, 12), (0, 0, 0), ((0,) * 3,) * 3, pool_target=20)
    >>> [str(x) for x in deal_net(r, rules)], [str(x) for x in standing_net(r, rules, s)]
    (['-16/3', '32/3', '-16/3'], ['-16/3', '32/3', '-16/3'])
    >>> [str(x) for x in standing_net(r, rules.replace(help_whists_per_point=10), s)]
    ['44/3', '-28/3', '-16/3']
    """
    return entries_net(
        _written(result, rules, standing.pool, standing.mountain, standing.raspas_step, standing.bombs, None,
                 check=check),
        result.players, rules,
    )  # fmt: skip


def _close_pools(
    entries: list[Entry], rules: Rules, current: Sequence[Amount], mountain_now: Sequence[Amount],
    help_to: int | None,
) -> list[Entry]:
    """Pool points past the target help others or write off the mountain (rules.md §10)."""
    target = rules.pool_target
    added: dict[int, Amount] = {}
    for e in entries:
        if e.column == "pool":
            p = e.player
            added[p] = added.get(p, 0) + e.amount
            if current[p] + added[p] > target:
                break
    else:
        return entries  # nobody passes the target: nothing to help or write off
    pool = list(current)
    mountain = list(mountain_now)
    for e in entries:
        if e.column == "mountain":
            mountain[e.player] += e.amount
    out: list[Entry] = []
    for e in entries:
        if e.column != "pool" or e.amount <= 0:
            out.append(e)
            continue
        p = e.player
        keep: Amount = max(min(e.amount, target - pool[p]), 0)
        surplus: Amount = e.amount - keep
        if keep:
            out.append(e._replace(amount=keep))
            pool[p] += keep
        while surplus > 0:
            q = _helped(rules, p, pool, help_to)
            if q is None:
                break
            g = min(surplus, target - pool[q])
            pool[q] += g
            surplus -= g
            out.append(Entry("pool", q, g, -1, "help"))  # помощь
            out.append(Entry("whists", p, g * rules.help_whists_per_point, q, "help"))
        if surplus > 0:
            # Nobody to help: the surplus writes off the own mountain (×2 Leningrad «питер» descriptions).
            off = min(surplus * rules.writeoff_mountain_mult, max(mountain[p], 0))
            if off > 0:
                out.append(Entry("mountain", p, -off, -1, "write-off"))
                mountain[p] -= off
                surplus -= Fraction(off) / rules.writeoff_mountain_mult
                if isinstance(surplus, Fraction) and surplus.denominator == 1:
                    surplus = surplus.numerator
            if surplus > 0 and not rules.surplus_lost:  # the pool goes past the target
                out.append(Entry("pool", p, surplus, -1, e.why))
                pool[p] += surplus
    return out

def _helped(rules: Rules, helper: int, pool: list[Amount], chosen: int | None) -> int | None:
    target = rules.pool_target
    n = len(pool)
    order = [(helper + k) % n for k in range(1, n)]
    open_ = [q for q in order if pool[q] < target]
    if not open_:
        return None
    mode = rules.help_target
    if mode == "choice" and chosen is not None and chosen in open_:
        return chosen
    if mode == "next":
        return open_[0]
    if mode == "highest_pool":
        return max(open_, key=lambda q: pool[q])  # nearest to closing; ties: next clockwise
    return min(open_, key=lambda q: pool[q])  # lowest pool; ties: next clockwise


def _ends_series(result: DealResult, rules: Rules) -> bool:
    """Does this game or misère break the all-pass series (rules.md §8.3)?"""
    made = _made(result)
    if result.kind is DealKind.MISERE:
        return rules.misere_ends_series and (made or not rules.exit_requires_made_game)
    if rules.exit_requires_made_game and not made:
        return False  # a failed, conceded or unwhisted game leaves the series running
    return not rules.exit_requires_whisted_game or _whisted(result)


def _made(result: DealResult) -> bool:
    """A game played (or checked) and made, or a clean misère."""
    if result.contract is None or result.declarer is None or result.conceded:
        return False
    taken = result.tricks.get(result.declarer, 0)
    if result.kind is DealKind.MISERE:
        return taken == 0
    return result.kind is DealKind.GAME and taken >= result.contract.level


def _whisted(result: DealResult) -> bool:
    """Was the game defended (for ``exit_requires_whisted_game``)?"""
    if result.ten_checked or result.conceded:
        return True
    return any(v in (DefenceCall.WHIST, DefenceCall.HALF) for v in result.defence.values())
