"""The arena: bots play duplicate deals and the score says who is stronger.

Each deal is dealt once (seeded) and played once for every *seating* — every
way to put the bots in the seats that uses each of them — so the luck of the
cards cancels.  A bot's score for a deal is its mean net whists per seat over
the seatings (one deal settled alone by the closed formula, rules.md §11.2);
over many deals the arena reports the mean with a 95 % confidence interval,
and per bot: games made and set, misères played and caught, all-pass
tricks, and two double-dummy checks — of the games it declared that the
solver proves makeable with all cards open, how many it made; of the games
the solver proves lost, how many it let make as a defender.

>>> from preferans import Rules
>>> report = run_arena(["medium", "random"], deals=2, rules=Rules(), seed=1)
>>> sorted(report.bots), report.deals, report.plays
(['medium', 'random'], 2, 12)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.deal import Deal, Phase
from ..engine.result import DealKind
from ..errors import ArenaError, PreferansError
from ..rules import Rules
from ..solver import Position, memo, solve_at_least
from .base import Bot
from .events import DealStart, GameEnd, GameStart, deal_outcome, rules_digest
from .levels import LEVELS, is_bot_spec, make_bot
from .protocol import SubprocessBot
from .value import result_value

__all__ = [
    "ArenaError", "BotStats", "Report", "bot_times", "deal_line", "play_deal", "run_arena", "seat_seed", "seatings",
]



def _bot(spec: str, rules: Rules, seed: int | None, timeout: float, players: int) -> Bot:
    """Our bots anew for each deal; bot programs once per process and seat slot."""
    if spec.startswith("cmd:"):
        return _cached_subprocess(spec, rules, timeout, players)
    return make_bot(spec, rules, seed=seed)


_SUBPROCESSES: dict[tuple[str, int], SubprocessBot] = {}
_DEALS_TOLD: dict[tuple[str, int], int] = {}
_BUSY: set[tuple[str, int]] = set()


def _cached_subprocess(spec: str, rules: Rules, timeout: float, players: int) -> Bot:
    """Bot programs are started once per process and seat slot, not once per deal.

    A program is told one ``game`` when it is started (each deal scored alone, its
    seat changing with the seatings) and ``end`` when the arena is done with it.
    """
    slot = sum(1 for key in _BUSY if key[0] == spec)
    key = (spec, slot)
    bot = _SUBPROCESSES.get(key)
    if bot is None:
        made = make_bot(spec, rules, timeout=timeout)
        assert isinstance(made, SubprocessBot)
        bot = _SUBPROCESSES[key] = made
        _DEALS_TOLD[key] = 0
        bot.tell_game(GameStart(players=players, rules_digest=rules_digest(rules), scoring="deals"))
    bot.rules = rules
    bot.timeout = timeout
    _BUSY.add(key)
    _DEALS_TOLD[key] += 1
    return bot


def _release_subprocesses() -> None:
    _BUSY.clear()


def close_subprocesses() -> None:
    """Tell every bot program this process started that the run is over, and end it."""
    for key, bot in _SUBPROCESSES.items():
        with contextlib.suppress(PreferansError):  # it is being closed anyway
            bot.tell_end(GameEnd(deals=_DEALS_TOLD.get(key, 0), reason="finished"))
        bot.close()
    _SUBPROCESSES.clear()
    _DEALS_TOLD.clear()


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """Every assignment of ``bots`` bots to ``seats`` seats that uses each bot.

    Each bot sits in each seat equally often.

    >>> seatings(2, 3)
    [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    >>> len(seatings(3, 3)), len(seatings(1, 3))
    (6, 1)
    """
    return [p for p in itertools.product(range(bots), repeat=seats) if len(set(p)) == bots]


def seat_seed(deal_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a deal: the same whichever bot sits there, so a
    seeded bot samples alike in every seating and two seatings differ only by the bots.

    >>> seat_seed(12, 0), seat_seed(12, 1)
    (12, 7907)
    """
    return deal_seed ^ (seat * 7919)


# --------------------------------------------------------------------------- one deal
def _counts() -> dict[str, float]:
    return dict.fromkeys(
        (
            "seats", "declared", "made", "set", "misere", "misere_clean", "catching",
            "caught", "allpass", "allpass_tricks", "dd_makeable", "dd_made", "dd_lost_defended",
            "dd_lost_let_make", "not_played", "decisions",
        ),
        0.0,
    )


def _dd_makeable(deal: Deal, hands: tuple[int, ...]) -> bool:
    """Can the declarer make his game with all cards open, first hand leading (rules.md §2)?"""
    active = deal.active
    assert deal.declarer is not None and deal.contract is not None
    h = (hands[active[0]], hands[active[1]], hands[active[2]])
    pos = Position(hands=h, declarer=active.index(deal.declarer), trump=deal.contract.trump)
    return solve_at_least(pos, deal.contract.level)


def play_deal(
    specs: Sequence[str], index: int, *, rules: Rules, seed: int, players: int = 3,
    timeout: float = 10.0,
) -> dict[str, Any]:
    """Play deal ``index`` in every seating; per bot: its score, counts and decision times.

    Every bot is told the deal (its seat, the dealer) before it and its outcome after it.
    The seatings share a solver memo (:func:`preferans.solver.memo`): seeded bots
    sample the same layouts of the same deal in each, and a position solved once
    is not searched again (exact answers, so no decision changes).
    """
    with memo():
        return _play_deal(specs, index, rules=rules, seed=seed, players=players, timeout=timeout)


def _play_deal(
    specs: Sequence[str], index: int, *, rules: Rules, seed: int, players: int, timeout: float,
) -> dict[str, Any]:
    deal_seed = _deal_seed(seed, index)
    dealer = index % players
    n = len(specs)
    score = [0.0] * n
    stats = [_counts() for _ in range(n)]
    plays: list[dict[str, Any]] = []
    digest = rules_digest(rules)
    for seating in seatings(n, players):
        deal = Deal.new(rules, players=players, dealer=dealer, seed=deal_seed)
        play_hands: tuple[int, ...] | None = None
        phases: list[str] = []
        seconds: list[float] = []  # each move's thinking time, beside its phase
        try:
            bots = [_bot(specs[b], rules, seat_seed(deal_seed, s), timeout, players) for s, b in enumerate(seating)]
            for seat, bot in enumerate(bots):
                bot.tell_deal(DealStart(index + 1, seat, dealer, players, digest))
            while not deal.is_over:
                s = deal.to_act
                assert s is not None
                if play_hands is None and deal.phase is Phase.PLAY:
                    play_hands = deal.hands
                obs = deal.observation(s)
                began = time.perf_counter()
                action = bots[s].act(obs)
                seconds.append(time.perf_counter() - began)
                stats[seating[s]]["decisions"] += 1
                phases.append(str(deal.phase))
                deal.apply(action, seat=s)  # IllegalAction here would be a bot bug: it propagates
            outcome = deal_outcome(index + 1, deal.result, rules)
            for bot in bots:
                bot.tell_result(outcome)
        finally:
            _release_subprocesses()
        result = deal.result
        values = result_value(result, rules)
        for s in range(players):  # the 4-handed dealer scores too (consolation, talon tricks)
            b = seating[s]
            score[b] += values[s]
            stats[b]["seats"] += 1
        makeable = _tally(deal, result, seating, stats, play_hands)
        plays.append(_play_record(deal, result, seating, values, phases, seconds, makeable))
    seats_per_bot = [st["seats"] for st in stats]
    return {
        "index": index,
        "value": [score[b] / seats_per_bot[b] if seats_per_bot[b] else 0.0 for b in range(n)],
        "stats": stats,
        "times": bot_times(plays, n),
        "deal_seed": deal_seed,
        "dealer": dealer,
        "plays": plays,
    }


def bot_times(plays: Sequence[dict[str, Any]], bots: int) -> list[list[float]]:
    """Each bot's decision times (seconds) over a deal's seatings, from each play's
    ``seconds`` (one a move; a move's seat is the seat whose bot decided it): the one
    record of the times, which the report and ``--resume`` read."""
    times: list[list[float]] = [[] for _ in range(bots)]
    for play in plays:
        for (seat, _action, _phase), took in zip(play["moves"], play.get("seconds", ()), strict=False):
            times[play["seating"][seat]].append(took)
    return times


def _deal_seed(seed: int, index: int) -> int:
    return random.Random(f"{seed}:{index}").getrandbits(63)


def _play_record(
    deal: Deal, result: Any, seating: tuple[int, ...], values: list[float], phases: list[str],
    seconds: list[float], makeable: bool | None,
) -> dict[str, Any]:
    """One seating's play of a deal, for ``--per-deal``: who sat where, the outcome,
    every move with the phase it was made in, each move's thinking time (``seconds``,
    one a move), and the double-dummy check."""
    return {
        "seating": list(seating),
        "kind": str(result.kind),
        "declarer": result.declarer,
        "contract": str(result.contract) if result.contract is not None else None,
        "defence": {str(s): str(c) for s, c in result.defence.items()},
        "tricks": {str(s): t for s, t in result.tricks.items()},
        "values": values,
        "moves": [[s, str(a), ph] for (s, a), ph in zip(deal.moves, phases, strict=True)],
        "seconds": [round(t, 6) for t in seconds],
        "dd_makeable": makeable,
    }


def _tally(
    deal: Deal, result: Any, seating: tuple[int, ...], stats: list[dict[str, float]],
    play_hands: tuple[int, ...] | None, stored: bool | None = None,
) -> bool | None:
    """Add one seating's outcome to the bots' counts; the double-dummy check of a
    trick game played (``None`` for anything else) — ``stored``: the check as a
    per-deal line recorded it, instead of asking the solver again."""
    kind = result.kind
    players = [s for s in deal.active if s < len(seating)]  # гусарик: the dummy (seat 2) is nobody's bot
    if kind is DealKind.ALL_PASS:
        for s in players:
            st = stats[seating[s]]
            st["allpass"] += 1
            st["allpass_tricks"] += result.tricks.get(s, 0)
        return None
    decl = result.declarer
    if decl is None:
        return None
    dst = stats[seating[decl]]
    if kind is DealKind.NOT_PLAYED:
        dst["not_played"] += 1
        return None
    if kind is DealKind.MISERE:
        dst["misere"] += 1
        caught = result.tricks.get(decl, 0) > 0
        dst["misere_clean"] += not caught
        for b in {seating[d] for d in deal.defenders if d in players}:
            stats[b]["catching"] += 1
            stats[b]["caught"] += caught
        return None
    contract = result.contract
    made = result.tricks.get(decl, 0) >= contract.level if result.conceded == 0 else False
    dst["declared"] += 1
    dst["made" if made else "set"] += 1
    if play_hands is None or result.conceded:
        return None  # conceded without play: no double-dummy check
    makeable = stored if stored is not None else _dd_makeable(deal, play_hands)
    if makeable:
        dst["dd_makeable"] += 1
        dst["dd_made"] += made
    else:
        for b in {seating[d] for d in deal.defenders if d in players and (d in result.whisters or result.ten_checked)}:
            stats[b]["dd_lost_defended"] += 1
            stats[b]["dd_lost_let_make"] += made
    return makeable


# --------------------------------------------------------------------------- the run
@dataclass
class BotStats:
    """One bot's totals over the run."""

    name: str
    values: list[float] = field(default_factory=list)
    counts: dict[str, float] = field(default_factory=_counts)
    times: list[float] = field(default_factory=list)  # seconds of each decision

    def time_quantile(self, q: float) -> float | None:
        """The ``q``-quantile of the seconds per decision (nearest rank), ``None`` without decisions.

        >>> BotStats("x", times=[0.004, 0.001, 0.002, 0.003]).time_quantile(0.5)
        0.002
        """
        if not self.times:
            return None
        ordered = sorted(self.times)
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    def time_summary(self) -> dict[str, float | None]:
        """Seconds per decision: median, 99th percentile, the slowest, the mean."""
        n = len(self.times)
        return {
            "median": self.time_quantile(0.5), "p99": self.time_quantile(0.99),
            "max": max(self.times) if n else None, "mean": sum(self.times) / n if n else None,
        }  # fmt: skip

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95 % confidence interval of the mean (normal approximation)."""
        n = len(self.values)
        if n < 2:
            return (-math.inf, math.inf)
        m = self.mean
        var = sum((x - m) ** 2 for x in self.values) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (m - half, m + half)

    def share(self, part: str, whole: str) -> float | None:
        w = self.counts[whole]
        return self.counts[part] / w if w else None

    def to_dict(self) -> dict[str, Any]:
        c = self.counts
        lo, hi = self.ci95
        return {
            "name": self.name,
            "mean_net_whists_per_deal": self.mean,
            "ci95": [lo, hi] if math.isfinite(lo) else None,  # one deal gives no interval
            "games_declared": int(c["declared"]),
            "games_made": int(c["made"]),
            "games_set": int(c["set"]),
            "games_not_played": int(c["not_played"]),
            "misere_played": int(c["misere"]),
            "misere_clean": int(c["misere_clean"]),
            "misere_catching": int(c["catching"]),
            "misere_caught": int(c["caught"]),
            "allpass_seats": int(c["allpass"]),
            "allpass_tricks_per_deal": c["allpass_tricks"] / c["allpass"] if c["allpass"] else None,
            "dd_makeable_declared": int(c["dd_makeable"]),
            "dd_makeable_made": int(c["dd_made"]),
            "dd_makeable_made_share": self.share("dd_made", "dd_makeable"),
            "dd_lost_defended": int(c["dd_lost_defended"]),
            "dd_lost_let_make": int(c["dd_lost_let_make"]),
            "dd_lost_let_make_share": self.share("dd_lost_let_make", "dd_lost_defended"),
            "decisions": int(c["decisions"]),
            "seconds_per_decision": self.time_summary(),
        }


@dataclass
class Report:
    """What ``preferans arena`` prints."""

    specs: list[str]
    rules: str
    players: int
    seed: int
    deals: int
    plays: int
    seconds: float
    bots: dict[str, BotStats]
    asked: int | None = None
    """The deals asked for: more than :attr:`deals` when the time limit stopped the run."""
    untimed: int = 0
    """Deals resumed from per-deal lines that carry no decision times (written before they did)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": [self.bots[s].to_dict() for s in self.specs],
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "deals": self.deals,
            "deals_asked": self.asked if self.asked is not None else self.deals,
            "seatings_per_deal": len(seatings(len(self.specs), self.players)),
            "deals_played": self.plays,
            "deals_untimed": self.untimed,
            "seconds": self.seconds,
        }

    def text(self) -> str:
        lines = [
            f"arena: {self.deals} duplicate deals × {len(seatings(len(self.specs), self.players))} seatings "
            f"= {self.plays} deals played; rules {self.rules}, {self.players} players, seed {self.seed}, "
            f"{self.seconds:.0f} s"
            + (f" (stopped by the time limit: {self.deals} of the {self.asked} deals asked)"
               if self.asked is not None and self.asked != self.deals else ""),
            "",
            f"{'bot':<12} {'net whists/deal':>15}  {'95% CI':<18} {'made/set':>10} {'misère clean/played':>20} "
            f"{'caught':>9} {'all-pass tricks':>15}",
        ]
        for s in self.specs:
            b = self.bots[s]
            c = b.counts
            lo, hi = b.ci95
            ap = f"{c['allpass_tricks'] / c['allpass']:.2f}" if c["allpass"] else "-"
            lines.append(
                f"{_short(s):<12} {b.mean:>+15.3f}  [{lo:+.3f}, {hi:+.3f}]".ljust(49)
                + f" {int(c['made']):>4}/{int(c['set']):<5}"
                f" {int(c['misere_clean']):>9}/{int(c['misere']):<10}"
                f" {int(c['caught']):>4}/{int(c['catching']):<4} {ap:>15}"
            )
        lines += ["", "double-dummy checks (all cards open, first hand leads):"]
        for s in self.specs:
            b = self.bots[s]
            c = b.counts
            lines.append(
                f"  {_short(s):<12} made {_pct(c['dd_made'], c['dd_makeable'])} of the makeable games it declared; "
                f"let make {_pct(c['dd_lost_let_make'], c['dd_lost_defended'])} of the lost games it defended"
            )
        lines += ["", "time per decision (the bot's answer, its protocol round trip included)"
                  + (f", over the {self.deals - self.untimed} deals that were timed:" if self.untimed else ":")]
        for s in self.specs:
            t = self.bots[s].time_summary()
            lines.append(
                f"  {_short(s):<12} median {_ms(t['median'])}, p99 {_ms(t['p99'])}, max {_ms(t['max'])} "
                f"over {len(self.bots[s].times)} decisions"
            )
        return "\n".join(lines)


def _short(spec: str) -> str:
    return spec if len(spec) <= 12 else spec[:11] + "…"


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


def _pct(a: float, b: float) -> str:
    return f"{int(a)}/{int(b)} ({100 * a / b:.1f}%)" if b else f"{int(a)}/0 (-)"


def _results(
    specs: list[str], deals: Sequence[int], rules: Rules, seed: int, players: int, workers: int,
    ray: str | None, timeout: float, stop: Callable[[], bool],
) -> Iterator[dict[str, Any]]:
    """The results of the deals numbered ``deals`` as they end; once ``stop()`` says so
    no deal is begun, and those under way are finished."""
    kw = {"rules": rules, "seed": seed, "players": players, "timeout": timeout}
    if ray is not None:
        for res in _ray_results(specs, deals, kw, ray):
            yield res
            if stop():
                return
        return
    if workers <= 1:
        try:
            for i in deals:
                yield play_deal(specs, i, **kw)  # type: ignore[arg-type]
                if stop():
                    return
        finally:
            close_subprocesses()
        return
    import concurrent.futures as cf
    import functools
    import multiprocessing

    job = functools.partial(_play_job, specs, kw)
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(job, i) for i in deals]
        try:
            for f in cf.as_completed(futures):
                if f.cancelled():
                    continue
                yield f.result()
                if stop():
                    for g in futures:
                        g.cancel()  # those not begun; the ones under way end and are yielded
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def _play_job(specs: list[str], kw: dict[str, Any], index: int) -> dict[str, Any]:
    return play_deal(specs, index, **kw)


def _ray_results(specs: list[str], deals: Sequence[int], kw: dict[str, Any], address: str,
                 ) -> Iterator[dict[str, Any]]:  # fmt: skip
    try:
        import ray
    except ImportError:
        raise ArenaError("--ray needs the [cluster] extra: pip install 'preferans[cluster]'") from None
    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
                 log_to_driver=False)
    remote = ray.remote(_play_job)
    pending = [remote.remote(specs, kw, i) for i in deals]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


def run_arena(
    specs: Sequence[str],
    *,
    deals: int,
    rules: Rules,
    seed: int = 1,
    players: int = 3,
    workers: int = 1,
    ray: str | None = None,
    timeout: float = 10.0,
    progress: Callable[[int, int, float], None] | None = None,
    per_deal: Callable[[dict[str, Any]], None] | None = None,
    time_limit: float | None = None,
    done: Sequence[dict[str, Any]] = (),
) -> Report:
    """Play ``deals`` duplicate deals between the bots ``specs`` and report.

    ``per_deal`` is given each deal's record as it ends (:func:`deal_line`).
    ``done``: the per-deal lines of an earlier run of the same match (``--resume``);
    those deals are not played again and the report covers them too.
    ``time_limit`` (seconds) stops the run once a deal ends after it: the report
    then covers deals ``0 … n−1``, the longest run of deals from the first that
    all ended (:attr:`Report.deals`), so a stop by the clock picks no deals by
    their outcome.
    """
    specs = list(specs)
    if not specs:
        raise ArenaError("bots: name at least one bot")
    if len(set(specs)) != len(specs):
        raise ArenaError("bots: name each bot once (a bot always plays against the others)")
    if len(specs) > players:
        raise ArenaError(f"bots: at most {players} bots at a table of {players}")
    if deals < 1:
        raise ArenaError(f"deals: must be at least 1, not {deals}")
    if time_limit is not None and not time_limit > 0:
        raise ArenaError(f"time limit: must be more than 0 seconds, not {time_limit}")
    if players not in (2, 3, 4):
        raise ArenaError(f"players: 2 (гусарик), 3 or 4, not {players}")
    for s in specs:
        if not is_bot_spec(s):
            raise ArenaError(f"unknown bot {s!r}: use a level ({', '.join(LEVELS)}) or cmd:PROGRAM")
    stats = {s: BotStats(s) for s in specs}
    by_index: dict[int, dict[str, Any]] = {}
    for line in done:
        res = result_from_line(line, specs, rules=rules, seed=seed, players=players)
        if res["index"] < deals:
            by_index[res["index"]] = res
    start = time.monotonic()

    def stop() -> bool:
        return time_limit is not None and time.monotonic() - start > time_limit

    todo = [i for i in range(deals) if i not in by_index]
    results = _results(specs, todo, rules, seed, players, workers, ray, timeout, stop)
    for count, res in enumerate(results, len(by_index) + 1):
        by_index[res["index"]] = res
        if per_deal is not None:
            per_deal(deal_line(specs, res))
        if progress is not None:
            progress(count, deals, time.monotonic() - start)
    played = next((i for i in range(deals) if i not in by_index), deals)
    for i in range(played):  # deal order: the same report whatever the workers
        res = by_index[i]
        for b, s in enumerate(specs):
            stats[s].values.append(res["value"][b])
            for k, v in res["stats"][b].items():
                stats[s].counts[k] += v
            stats[s].times.extend(res["times"][b])
    if played == 0:
        raise ArenaError(f"time limit: no deal ended within {time_limit:g} s")
    untimed = sum(1 for i in range(played) if by_index[i].get("resumed") and not any(by_index[i]["times"]))
    return Report(specs, rules.name, players, seed, played, played * len(seatings(len(specs), players)),
                  time.monotonic() - start, stats, asked=deals, untimed=untimed)


def deal_line(specs: Sequence[str], res: dict[str, Any]) -> dict[str, Any]:
    """One deal of a run as ``preferans arena --per-deal`` writes it (a JSON line).

    ``index`` (from 0), ``seed`` and ``dealer`` rebuild the deal
    (``Deal.new(rules, players=…, dealer=dealer, seed=seed)``); ``values`` are the
    bots' scores for the deal (as averaged in the report); ``plays`` one per
    seating: ``seating`` (the bot at each seat, an index into ``bots``), ``kind``,
    ``declarer``, ``contract``, ``defence``, ``tricks``, ``values`` (per seat),
    ``moves`` ([seat, action, phase]), ``seconds`` (each move's thinking time) and
    ``dd_makeable`` (trick games played); ``stats`` the bots' counts, so that
    ``--resume`` can continue a run from its lines (the bots' decision times are read
    from the plays' ``seconds``).
    """
    return {"index": res["index"], "seed": res["deal_seed"], "dealer": res["dealer"],
            "bots": list(specs), "values": res["value"], "plays": res["plays"], "stats": res["stats"]}


def result_from_line(line: dict[str, Any], specs: Sequence[str], *, rules: Rules, seed: int,
                     players: int) -> dict[str, Any]:  # fmt: skip
    """A finished deal of an earlier run of the same match, from its per-deal line (for ``--resume``).

    The line must be of these bots, this seed and this table size (else :class:`ArenaError`
    says which differs).  A line written before the lines carried ``stats`` (issue 18) has
    its counts worked out again by replaying each seating's moves (the stored double-dummy
    check is used, not searched again); it has no decision times.  The decision times are
    the plays' ``seconds``, or the line's own ``times`` in lines written before the plays
    carried them.
    """
    index = line.get("index")
    if not isinstance(index, int) or index < 0:
        raise ArenaError(f"per-deal line: 'index' must be a deal number from 0, not {index!r}")
    if line.get("bots") != list(specs):
        raise ArenaError(f"per-deal line of deal {index}: bots {line.get('bots')} differ from --bots {list(specs)}")
    if line.get("seed") != _deal_seed(seed, index) or line.get("dealer") != index % players:
        raise ArenaError(f"per-deal line of deal {index}: another deal (written with another --seed or --players)")
    n = len(specs)
    stats = line.get("stats")
    if stats is None:
        stats = [_counts() for _ in range(n)]
        for play in line["plays"]:
            seating = tuple(play["seating"])
            deal = Deal.new(rules, players=players, dealer=line["dealer"], seed=line["seed"])
            play_hands = None
            for s, text, _phase in play["moves"]:
                if play_hands is None and deal.phase is Phase.PLAY:
                    play_hands = deal.hands
                actor = deal.to_act  # whose bot decided (the гусарик dummy's cards: the whister's)
                deal.replay_move(s, text)
                if actor is not None and actor < len(seating):
                    stats[seating[actor]]["decisions"] += 1
            for s in range(players):
                stats[seating[s]]["seats"] += 1
            _tally(deal, deal.result, seating, stats, play_hands, stored=play.get("dd_makeable"))
            if [round(v, 9) for v in result_value(deal.result, rules)] != [round(v, 9) for v in play["values"]]:
                raise ArenaError(f"per-deal line of deal {index}: its moves do not give its values "
                                 f"(written under other rules?)")  # fmt: skip
    return {"index": index, "value": line["values"], "stats": stats,
            "times": line.get("times") or bot_times(line["plays"], n), "deal_seed": line["seed"],
            "dealer": line["dealer"], "plays": line["plays"], "resumed": True}


def progress_bar(stream: Any = None) -> Callable[[int, int, float], None]:
    """A progress display: a redrawn bar on a terminal, a line every 5 % otherwise."""
    out = stream if stream is not None else sys.stderr
    tty = hasattr(out, "isatty") and out.isatty()
    last = [-1]

    def show(done: int, total: int, seconds: float) -> None:
        rate = done / seconds if seconds > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        text = f"{done}/{total} deals  {rate:.2f} deals/s  eta {eta / 60:.1f} min"
        if tty:
            width = 30
            fill = int(width * done / total)
            out.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {text}")
            if done == total:
                out.write("\n")
        else:
            step = done * 20 // total
            if step == last[0] and done != total:
                return
            last[0] = step
            out.write(text + "\n")
        out.flush()

    return show
