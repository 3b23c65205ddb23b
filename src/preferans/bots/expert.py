"""ExpertBot (``expert``): the sampling bot that uses the time it is given.

It is :class:`.pimc.PimcBot` with nine changes:

* **Anytime sampling.**  A card is chosen by sampling layouts in batches of
  :attr:`ExpertBot.batch`, each batch solved by one C call
  (:func:`preferans.solver.best_moves_many`), until the thinking time
  (``think`` seconds) would run out, a cap of layouts is reached, or a
  convergence test says the choice no longer changes: the weighted mean
  lead of the best card over the second, layout by layout, is more than
  :data:`CONFIDENCE` standard errors, or both are equal to within
  :data:`SAME` whist.
* **My next card chosen once** (``lookahead``, on by default).  Plain sampling
  values a card as if, at my next turn, I would know the layout and play its
  best card (strategy fusion).  The :data:`LOOKAHEAD_CANDIDATES` best cards are
  valued again on :attr:`ExpertBot.lookahead_layouts` layouts: the others' cards up
  to my next turn are played double-dummy in each layout, and then one card of
  mine must serve every layout that shows me the same cards
  (:meth:`ExpertBot._next_turn_values`, the first step of αμ).
* **Inference.**  Every layout is weighted by how likely it makes the
  others' calls and cards (:mod:`.inference`); decisions that take plain
  samples (whisting, the talon, the auction) get layouts resampled in
  proportion to those weights from :data:`OVERSAMPLE` times as many.
* **Misère catchers read the discard** (``misere_catch``, on by default).  The
  talon is shown and the catchers lie open (Kodeks 3.6.6), so a catcher knows the
  declarer's twelve cards and guesses only the two he threw: the layouts where he
  kept his cleanest ten weigh most (:data:`.inference.MISERE_KEPT`), and the
  catcher's layouts are drawn by weight from :data:`MISERE_OVERSAMPLE` times as many.
* **Signals kept.**  Among cards the solver finds equal a defender follows
  the rules the inference reads (lowest card when not taking the trick, a
  discard from the longest side suit), so the partner reads him right.
* **Real play, not double-dummy, in the auction** (``dd_bias``, on by default).
  Where the auction and the talon judge a game I would declare, each layout's
  double-dummy tricks are spread over the tricks declarers really took from
  such layouts (:func:`shift_odds`, counted from played deals by
  ``benchmarks/dd_bias.py`` into :mod:`.dd_bias_table`): defenders who cannot
  see each other's cards let a game that double-dummy sets through about half
  the time, and misère catchers, who do not see the declarer's cards, miss a
  single hole more often than not.  (An option, ``defence_mix``, weighs each defence
  situation as often as games of that level met it under rules that whist alike:
  :func:`auction_odds`, :mod:`.defence_mix_table`; off by default.)  The all-pass a pass
  would make is taken as played too (the solved tricks less :data:`ALLPASS_PESSIMISM`).  Whisting stays
  double-dummy: corrected the same way it lost (``docs/bots.md``).
* **The whisting layouts drawn by the declarer's margin** (``declarer_margin``, on by
  default).  The inference reads a declarer's bids too softly and leaves him a trick
  weaker than declarers are; before the first card of a trick game (three players) the
  whisting layouts are drawn again by how likely his double-dummy margin in each is among
  true declarers (:func:`margin_weight`, :mod:`.whist_margin_table`).
* **The all-pass risk.**  When everybody else has passed, passing means an
  all-pass; the bot bids the lowest game instead when its expected score,
  over sampled talons and layouts, beats the all-pass's.
* **The all-pass played out too** (``playout``, on by default).  On an all-pass
  (three players, or the three who play of four) the solver's worst case (the other
  two both giving me tricks) is blended with play-outs in which everybody goes on by
  the rule of thumb (:mod:`.playout`):
  the others neither see my cards nor play together against me.

An option, ``partner_view`` (off by default), values a defender's card in the
last tricks by the answer his partner can find from his own view
(:meth:`ExpertBot._partner_tricks`) instead of double-dummy.

:meth:`ExpertBot.hint` gives the expected score of each choice in whists
(the terminal and web hint).

>>> from preferans import Deal, Phase, Rules
>>> deal = Deal.new(Rules(), seed=8)
>>> bot = ExpertBot(Rules(), seed=1, think=0.05)
>>> while deal.phase is not Phase.PLAY:
...     deal.apply(bot.act(deal.observation(deal.to_act)), seat=deal.to_act)
>>> rows = bot.hint(deal.observation(deal.to_act))
>>> [type(a).__name__ for a, _ in rows[:1]], all(isinstance(v, float) for _, v in rows)
(['Action'], True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..actions import CLOSED, MISERE, OPEN, PASS, PLAY, QUOTA, Action, Contract
from ..cards import SUIT_MASKS, Card
from ..engine.observation import Observation, Phase
from ..rules import Rules
from ..solver import Position, best_moves_many, selfish_moves_many, solve_many
from .dd_bias_table import COUNTS
from .defence_mix_table import CALLS, DEFENCE
from .evaluate import choose_discard, strain_tricks
from .heuristic import HeuristicBot, _defenders, _whist_calls
from .inference import Evidence, evidence_of, layout_weight, whist_odds
from .knowledge import OUT, Knowledge, active_seats, deal_kind
from .pimc import PimcBot, discard_candidates
from .playout import play_out
from .sampling import sample_layouts
from .value import allpass_utility, game_utility
from .whist_margin_table import MARGINS

__all__ = [
    "ALLPASS_PESSIMISM", "CALLS_PRIOR", "CANDIDATES", "CLOSE_LAYOUTS", "CLOSE_MARGIN",
    "CLOSE_THINK", "CONFIDENCE", "DEFENCE_OPTIONS", "LOOKAHEAD_CANDIDATES", "LOOKAHEAD_LAYOUTS",
    "MARGIN_RANGE", "MISERE_OVERSAMPLE", "MIX_PRIOR", "OVERSAMPLE", "PARTNER_MARGIN", "PARTNER_TRICKS", "PLAYOUT",
    "PLAYOUT_LAYOUTS", "SAME", "STRAINS", "ExpertBot", "auction_odds", "defence_profile", "margin_of",
    "margin_weight", "parse_think", "second_whist_odds", "shift_odds", "whisting_preset",
]  # fmt: skip

CONFIDENCE = 2.5
"""Standard errors by which the best card must lead the second to stop early."""

SAME = 0.02
"""Whists within which the two best cards count as equal (stop: either will do)."""

OVERSAMPLE = 3
"""Candidates drawn per layout kept when layouts are resampled by weight."""

MISERE_OVERSAMPLE = 32
"""The same for a misère catcher's card decisions (:meth:`ExpertBot._drawn`)."""

ALLPASS_PESSIMISM = 1.2
"""Tricks by which the solved all-pass (the two others both playing to give me tricks) overstates
what a seat takes at the table: 1.23 ± 0.18 over 80 Sochi deals played out by ``hard``
(``python benchmarks/standing.py --calibrate 80``); with the expert playing the seat, 1.39 ± 0.22
(Leningrad) and 1.40 ± 0.23 (Sochi) over 200 deals (``--calibrate-player expert``), and 1.35
changed no decision of 156 deals, so it stays."""

CLOSE_MARGIN = 30.0
"""Whists a layout by which my lowest game may fall short at an opening call and still be judged
again with the talon plan's discard (:meth:`ExpertBot._planned_counts`): a close call."""

CLOSE_LAYOUTS = 3
"""Deals of the unseen cards on which that second judgement chooses each layout's discard."""

CLOSE_THINK = 0.5
"""Seconds of thinking time from which a close opening call is judged again: the second
judgement takes about a second whatever the time, so a quicker expert does without it."""

PARTNER_TRICKS = 5
"""A defender judges his partner's answer from the partner's view in the last this many tricks."""

LOOKAHEAD_CANDIDATES = 4
"""Cards (the best by plain sampling) that a card decision values again with my next card chosen once."""

LOOKAHEAD_LAYOUTS = 32
"""Layouts of that look-ahead at a second of thinking (fewer with less time, at least ``min_layouts``)."""

STRAINS = 3
"""Strains (the most promising by estimate) the auction, the all-pass comparison and the talon
plan solve: three, not `hard`'s two (issue 29, eighth step)."""

CANDIDATES = 10
"""Discards the talon plan solves in each strain: ten, not `hard`'s six (issue 29, eighth step)."""

SELFISH_CARDS = 0
"""On an all-pass, from this many cards in hand on (and no talon card left to lead), each
sampled layout is searched with each player taking his own fewest tricks
(:func:`~preferans.solver.selfish_moves_many`), not with the other two giving me mine
(issue 29, twelfth step); 0: never."""

PLAYOUT = 0.3
"""On an all-pass of three or four players, the weight of the rule-of-thumb play-outs in a card's
value (:func:`.playout.play_out`), the solver's worst case having the rest (issue 29,
thirteenth step); 0: the worst case alone."""

PLAYOUT_LAYOUTS = 48
"""Layouts a card decision on the all-pass plays out."""

PARTNER_MARGIN = 0.25
"""Whists within which the model of the partner counts his answers as equal (he
may choose any of them: sampled apart, the real partner's values differ a little)."""


def parse_think(text: str) -> float:
    """Seconds from ``"1s"``, ``"250ms"`` or ``"0.5"``.

    >>> parse_think("1s"), parse_think("250ms"), parse_think("0.5")
    (1.0, 0.25, 0.5)
    """
    t = text.strip().lower()
    try:
        if t.endswith("ms"):
            value = float(t[:-2]) / 1000
        elif t.endswith("s"):
            value = float(t[:-1])
        else:
            value = float(t)
    except ValueError:
        raise ValueError(f"thinking time {text!r}: write seconds or milliseconds, e.g. 1s or 250ms") from None
    if not 0 < value <= 60:
        raise ValueError(f"thinking time {text!r}: between 1ms and 60s")
    return value


class ExpertBot(PimcBot):
    """The sampling bot with a thinking time (see the module doc).

    ``think`` — seconds a card decision may take (default 1); the cap of layouts
    per card decision grows with it (:attr:`max_layouts`); ``min_layouts`` are
    always sampled, whatever the clock says.  ``infer`` — weight
    the layouts by the others' calls and cards.  ``partner_view`` — in the last
    tricks of a closed defence, value a card by the answer the partner can find
    from his own view (:meth:`_partner_tricks`; off by default: measured, it did
    not defend better, see ``docs/bots.md``).  ``standing`` — score outcomes on the
    pulka's standing when the observation has one; ``all_pass_standing`` — in the
    last bidder's game-or-all-pass comparison too (the series' price, a bomb; off by
    default: measured, its decisions lost more often than they gained).  ``dd_bias`` —
    judge my games, misères and the all-pass in the auction and at the talon by how
    they are really played, not double-dummy (:func:`shift_odds`; on by default).
    ``defence_mix`` — with ``dd_bias``, weigh the defences a game may meet by how often
    games of its level met each under rules that whist alike, not every trick game alike
    (:func:`auction_odds`; off by default: measured, it scored no more, see ``docs/bots.md``).
    ``partner_calls`` — with ``partner_odds``, a first defender's partner whists as often
    after my whist or pass as second defenders did under rules that whist alike
    (:func:`second_whist_odds`; off by default: measured, its passes lost).
    ``declarer_margin`` — at three players, before the first card of a trick game, draw the
    whisting layouts again by how likely the declarer's double-dummy margin in each is among
    true declarers (:func:`margin_weight`; on by default).
    ``opening_rule`` — at my first call, bid where the rule of thumb would even when
    the sampled judgement passes (:meth:`bid_limits`; on by default).  ``rival_pass`` —
    the odds that each player still to speak passes too, while nobody has bid: a pass is
    worth that share of the all-pass (:meth:`all_pass_odds`; 0: a pass before the last
    call is worth nothing).  ``partner_odds`` — a first defender weighs his partner's
    whist or pass by the partner's cards in each layout, not half and half
    (:meth:`_partner_whist_odds`; on by default).  ``lookahead`` — value the best
    cards again with my next card chosen once for the layouts I will not tell apart
    by then (:meth:`_next_turn_values`; on by default).  ``misere_catch`` — a misère
    catcher draws its layouts by weight, the declarer having kept his cleanest ten
    (:meth:`_drawn`; on by default).  ``read_discard`` — a defender splits the declarer's
    twelve as he would have discarded at every trick of a game, not only before the
    first card (:meth:`.PimcBot._guess_discard`; off by default: measured, it defended better
    and the expert did not score more, see ``docs/bots.md``).  ``strains`` and
    ``candidates`` — the strains the auction and the talon plan solve, and the discards
    tried in each (:data:`STRAINS`, :data:`CANDIDATES`).  ``talon_strain`` — in the auction
    and the all-pass comparison, also judge the lowest strain's bid as the game I would name
    after seeing the talon, in the strain my twelve cards then suit best
    (:meth:`_talon_strain_counts`; on by default).  ``close_plan`` — an opening call
    whose lowest game falls just short is judged again with the discard the talon plan would
    make (:meth:`_planned_counts`; on by default, from :data:`CLOSE_THINK` of thinking
    time).  ``open_choice`` — a lone whister lays the defence open or keeps it closed by
    which is worth more over sampled layouts, as each is really played (:meth:`_defence`;
    on by default; off: the rule of thumb).  ``selfish`` — on an all-pass, from this many
    cards in hand on, search each layout with every player playing for his own fewest tricks
    (:data:`SELFISH_CARDS`; 0: never).  ``playout`` — on an all-pass of three or four players,
    the weight of the rule-of-thumb play-outs in a card's value, the solver's worst
    case having the rest (:data:`PLAYOUT`; 0: the worst case alone).
    """

    name = "expert"

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        think: float = 1.0,
        infer: bool = True,
        batch: int = 8,
        min_layouts: int = 16,
        max_layouts: int | None = None,
        partner_view: bool = False,
        standing: bool = True,
        all_pass_standing: bool = False,
        dd_bias: bool = True,
        defence_mix: bool = False,
        partner_calls: bool = False,
        declarer_margin: bool = True,
        opening_rule: bool = True,
        rival_pass: float = 0.6,
        partner_odds: bool = True,
        lookahead: bool = True,
        misere_catch: bool = True,
        read_discard: bool = False,
        strains: int = STRAINS,
        candidates: int = CANDIDATES,
        talon_strain: bool = True,
        close_plan: bool = True,
        open_choice: bool = True,
        selfish: int = SELFISH_CARDS,
        playout: float = PLAYOUT,
    ) -> None:
        if not 0.0 <= rival_pass <= 1.0:
            raise ValueError(f"rival_pass is the odds that a player passes: between 0 and 1, not {rival_pass}")
        if not 0.0 <= playout <= 1.0:
            raise ValueError(f"playout is the play-outs' weight in an all-pass card: between 0 and 1, not {playout}")
        scale = max(0.0, min(1.0, think))
        super().__init__(
            rules, seed=seed, samples=16, discard_samples=8 + int(8 * scale), candidates=candidates,
            level_samples=16 + int(16 * scale), whist_samples=24 + int(24 * scale),
            bid_samples=24 + int(24 * scale), standing=standing, strains=strains,
        )
        self.think = think
        self.infer = infer
        self.batch = batch
        self.min_layouts = min_layouts
        self.max_layouts = max_layouts if max_layouts is not None else max(min_layouts, int(400 * think))
        self.partner_view = partner_view
        self.all_pass_standing = all_pass_standing
        self.dd_bias = dd_bias
        self.defence_mix = defence_mix
        self.partner_calls = partner_calls
        self.declarer_margin = declarer_margin
        self.opening_rule = opening_rule
        self.rival_pass = rival_pass
        self.partner_odds = partner_odds
        self.lookahead = lookahead
        self.misere_catch = misere_catch
        self.read_discard = read_discard
        self.talon_strain = talon_strain
        self.close_plan = close_plan
        self.open_choice = open_choice
        self.selfish = selfish
        self.playout = playout
        self.playout_layouts = PLAYOUT_LAYOUTS
        """Layouts a card decision on the all-pass plays out (:data:`PLAYOUT_LAYOUTS`)."""
        self.playout_players: tuple[int, ...] = (3, 4)
        """Table sizes whose all-pass cards blend in the play-outs (measured with three and four)."""
        self.lookahead_layouts = max(min_layouts, int(LOOKAHEAD_LAYOUTS * scale))
        """Layouts the look-ahead values its candidates on (those sampled first, and more)."""
        self._partner_model: ExpertBot | None = None
        self.last_layouts = 0
        """Layouts the last card decision sampled (for benchmarks and tests)."""

    # ------------------------------------------------------------------ real play against double-dummy
    def _game_value(self, u: Sequence[float], counts: Sequence[int], level: int, players: int) -> float:
        """With ``dd_bias``, each double-dummy count of tricks is spread over the tricks
        declarers really took from such layouts (:func:`shift_odds`)."""
        if not self.dd_bias or players == 2:  # гусарик's dummy: not what the table counted
            return super()._game_value(u, counts, level, players)
        profile = defence_profile(self.rules, players) if self.defence_mix else None
        return _spread(u, counts, level, "auction", profile, players)

    def _misere_value(self, u: Sequence[float], counts: Sequence[int], players: int) -> float:
        """With ``dd_bias``, a misère's double-dummy tricks (the catchers seeing the
        declarer's cards) spread over what misère declarers really took."""
        if not self.dd_bias or players == 2:
            return super()._misere_value(u, counts, players)
        return _spread(u, counts, 0, "misere")

    # ------------------------------------------------------------------ layouts
    def _layouts(self, obs: Observation, n: int) -> tuple[Knowledge, list[dict[int, int]]]:
        """``n`` layouts resampled by weight from ``OVERSAMPLE * n`` candidates."""
        k = Knowledge.of(obs)
        rng = self._rng_for(obs)
        if not self.infer or not k.places():
            return k, sample_layouts(k, n, rng)
        return k, _resampled(obs, k, evidence_of(obs), n, OVERSAMPLE, rng)

    def _drawn(
        self, obs: Observation, k: Knowledge, ev: Evidence | None, n: int, rng: random.Random,
    ) -> tuple[list[dict[int, int]], list[float]]:
        """``n`` layouts for a card decision and their weights.

        A misère catcher (with ``misere_catch``) draws them in proportion to their
        weight from :data:`MISERE_OVERSAMPLE` times as many, each then weighing alike:
        the declarer kept the cleanest ten of his twelve (:data:`.inference.MISERE_KEPT`),
        which rules out nearly every uniform layout, so weighting uniform ones would leave
        a handful to count.  Every other decision weights uniform layouts."""
        if ev is not None and self.misere_catch and ev.kind == "misere" and obs.seat != obs.declarer:
            return _resampled(obs, k, ev, n, MISERE_OVERSAMPLE, rng), [1.0] * n
        lays = sample_layouts(k, n, rng)
        return lays, self._weighted(obs, k, ev, lays)

    def _weighted(self, obs: Observation, k: Knowledge, ev: Evidence | None, lays: list[dict[int, int]]) -> list[float]:
        if ev is None:
            return [1.0] * len(lays)
        return [layout_weight(obs, k, lay, ev) for lay in lays]

    # ------------------------------------------------------------------ card play
    def card_values(self, obs: Observation, *, every_card: bool = False) -> dict[int, float]:
        """Expected net whists of each legal card, sampled until the time, the cap
        or the convergence test stops (see the module doc).

        With ``lookahead`` the :data:`LOOKAHEAD_CANDIDATES` best are valued again with
        my next card chosen once (:meth:`_next_turn_values`); every other card keeps its
        plain value but no more than the worst of them (it was behind all of them), or,
        with ``every_card`` (the hint), every legal card is looked ahead.  On an all-pass
        with ``playout`` the values are blended with the play-outs' (:meth:`_playout_values`)."""
        values = self._searched_values(obs, every_card=every_card)
        # measured with three and four players (benchmarks/allpass_play.py --players); гусарик's all-pass is
        # two hands a trick, not the solver's
        if (not self.playout or obs.players not in self.playout_players or len(values) < 2
                or deal_kind(obs) != "allpass"):
            return values
        played = self._playout_values(obs)
        if played is None:
            return values
        w = self.playout
        return {c: w * played[c] + (1.0 - w) * v for c, v in values.items()}

    def _playout_values(self, obs: Observation) -> dict[int, float] | None:
        """Each legal card's expected net whists on an all-pass when from it on every
        player plays the rule of thumb (:func:`.playout.play_out`), over
        ``playout_layouts`` layouts drawn by weight; ``None`` when no card is hidden."""
        k = Knowledge.of(obs)
        if not k.places():
            return None
        legal = [int(a) for a in obs.legal_actions if a < 32]
        ev = evidence_of(obs) if self.infer else None
        rng = random.Random(f"{self.seed or 0}:{obs.seat}:{obs.hand}:{len(obs.moves)}:playout")
        utility = self._utility(obs, "allpass")
        focus_won = self._focus_won(obs, "allpass")
        lays, weights = self._drawn(obs, k, ev, self.playout_layouts, rng)
        total = dict.fromkeys(legal, 0.0)
        for w, lay in zip(weights, lays, strict=True):
            pos = self._position(obs, k, lay, "allpass")
            for c in legal:
                total[c] += w * utility[min(10, focus_won + play_out(pos, c)[0])]
        wsum = sum(weights) or 1.0
        return {c: v / wsum for c, v in total.items()}

    def _searched_values(self, obs: Observation, *, every_card: bool = False) -> dict[int, float]:
        """:meth:`card_values` by the solver alone (sampling, the look-ahead)."""
        start = time.perf_counter()
        legal = [int(a) for a in obs.legal_actions if a < 32]
        kind = deal_kind(obs)
        k = Knowledge.of(obs)
        ev = evidence_of(obs) if self.infer else None
        rng = random.Random(f"{self.seed or 0}:{obs.seat}:{obs.hand}:{len(obs.moves)}:play")
        utility = self._utility(obs, kind)
        focus_won = self._focus_won(obs, kind)
        rows: list[tuple[float, dict[int, float]]] = []
        kept: list[tuple[float, Position]] = []  # each layout's weight and position, for the look-ahead
        hidden = bool(k.places())
        partner = self._partner_next(obs, k, kind) if self.partner_view else None
        selfish = False
        while True:
            t0 = time.perf_counter()
            lays, weights = self._drawn(obs, k, ev, self.batch, rng) if hidden else ([{}], [1.0])
            positions = []
            for lay in lays:
                self._guess_discard(obs, k, lay)
                positions.append(self._position(obs, k, lay, kind))
            # The all-pass's end, each for himself (SELFISH_CARDS), once no talon card leads
            # (the position says so: rules.md §8.2, Kodeks 3.7.6).
            selfish = kind == "allpass" and 0 < obs.hand.bit_count() <= self.selfish and not positions[0].talon
            if partner is not None:
                tables = self._partner_tricks(obs, lays, positions, legal, partner)
            elif selfish:
                tables = [{int(c): v for c, v in m.items()} for m in selfish_moves_many(positions)]
            else:
                tables = [{int(c): v for c, v in m.items()} for m in best_moves_many(positions)]
            for w, moves in zip(weights, tables, strict=True):
                rows.append((w, {c: utility[min(10, focus_won + v)] for c, v in moves.items() if c in legal}))
            kept.extend(zip(weights, positions, strict=True))
            now = time.perf_counter()
            if not hidden or len(rows) >= self.max_layouts:
                break
            # min_layouts is a floor the clock does not cut (a loaded machine would
            # otherwise leave the expert fewer layouts than hard)
            if len(rows) >= self.min_layouts and (now - start + (now - t0) > self.think or _settled(rows, legal)):
                break
        self.last_layouts = len(rows)
        wsum = sum(w for w, _ in rows) or 1.0
        values = {c: sum(w * r.get(c, 0.0) for w, r in rows) / wsum for c in legal}
        # With two cards left my next card is forced: nothing to choose once.  The partner's
        # view (an option) and the selfish search value the cards their own way.
        if (not self.lookahead or not hidden or len(legal) < 2 or obs.hand.bit_count() < 3
                or partner is not None or selfish):
            return values
        more = self.lookahead_layouts - len(kept)
        if more > 0:
            lays, weights = self._drawn(obs, k, ev, more, rng)
            for w, lay in zip(weights, lays, strict=True):
                self._guess_discard(obs, k, lay)
                kept.append((w, self._position(obs, k, lay, kind)))
            self.last_layouts = len(kept)  # the values below are over all of them
        ranked = sorted(legal, key=lambda c: -values[c])
        cands = ranked if every_card else ranked[:LOOKAHEAD_CANDIDATES]
        ahead = self._next_turn_values(kept, cands, utility, focus_won)
        floor = min(ahead.values())
        return {c: ahead[c] if c in ahead else min(values[c], floor) - 1e-6 for c in legal}

    @staticmethod
    def _next_turn_values(
        kept: Sequence[tuple[float, Position]], cands: Sequence[int], utility: Sequence[float], focus_won: int,
    ) -> dict[int, float]:
        """Each candidate card's expected net whists over the weighted layouts ``kept``
        when my *next* card must be one card for all the layouts that will look the same
        to me by then, not the best card of each layout.

        After my card the others' cards up to my next turn are played double-dummy in
        each layout (each for his side; of equal cards the lowest), so the layouts where
        they play the same cards form one group; in each group my next card is the one
        best on average over the group, and from there on play is double-dummy.  This
        is the first step of αμ (Cazenave and Ventos): plain sampling lets me play the
        best card of each layout at every later turn, and so it overvalues a card that
        leaves a guess for later.  With a utility that moves with the focus's tricks the
        way mine does, the value is never above plain sampling's.
        """
        first = kept[0][1]
        me, focus, goal = first.to_play, first.declarer, first.goal

        def wants_more(p: int) -> bool:  # does player p play for more tricks of the focus?
            return (p == focus) == (goal == "tricks")

        # a state: my card, the layout, the position, the focus's tricks since, the others' cards since
        states: list[tuple[int, int, Position, int, tuple[int, ...]]] = [
            (c, i, *_step(pos, c, focus), ()) for c in cands for i, (_, pos) in enumerate(kept)
        ]
        while True:
            todo = [j for j, s in enumerate(states) if s[2].to_play != me and s[2].hands[s[2].to_play]]
            if not todo:
                break
            for j, moves in zip(todo, best_moves_many([states[j][2] for j in todo]), strict=True):
                c, i, pos, gained, seen = states[j]
                best = (max if wants_more(pos.to_play) else min)(moves.values())
                q = min(int(m) for m, v in moves.items() if v == best)
                nxt, won = _step(pos, q, focus)
                states[j] = (c, i, nxt, gained + won, (*seen, q))
        live = [j for j, s in enumerate(states) if s[2].hands[me]]
        after = dict(zip(live, best_moves_many([states[j][2] for j in live]), strict=True)) if live else {}
        total: dict[int, float] = dict.fromkeys(cands, 0.0)
        groups: dict[tuple[int, tuple[int, ...]], dict[int, float]] = {}
        for j, (c, i, _, gained, seen) in enumerate(states):
            w = kept[i][0]
            if j not in after:  # the deal is over by my next turn
                total[c] += w * utility[min(10, focus_won + gained)]
                continue
            group = groups.setdefault((c, seen), {})
            for q, v in after[j].items():
                group[int(q)] = group.get(int(q), 0.0) + w * utility[min(10, focus_won + gained + v)]
        for (c, _), group in groups.items():
            total[c] += max(group.values())
        wsum = sum(w for w, _ in kept) or 1.0
        return {c: v / wsum for c, v in total.items()}

    # ------------------------------------------------------------------ defence together
    def _partner_next(self, obs: Observation, k: Knowledge, kind: str) -> int | None:
        """The partner's seat when he plays right after me in this trick, with his
        hand hidden from me, in the last :data:`PARTNER_TRICKS` tricks of a closed
        defence; else ``None``."""
        if kind != "game" or obs.declarer is None or obs.seat == obs.declarer or len(obs.trick) > 1:
            return None
        if obs.hand.bit_count() > PARTNER_TRICKS:
            return None
        a = k.active
        nxt = a[(a.index(obs.seat) + 1) % 3]
        return nxt if nxt != obs.declarer and nxt in k.sizes else None

    def _partner_tricks(
        self, obs: Observation, lays: list[dict[int, int]], positions: list[Position],
        legal: list[int], partner: int,
    ) -> list[dict[int, int]]:
        """The declarer's tricks after each of my cards, per layout, when the partner
        answers it as he can from what *he* sees (his hand, the table, my card) —
        not, as double-dummy, knowing mine: a card whose good sequel the partner
        cannot find is worth what he will find.  The declarer and the later tricks
        are still solved with all cards open."""
        out: list[dict[int, int]] = [{} for _ in lays]
        choice: dict[tuple[int, int], list[int]] = {}  # (my card, partner's hand) → his best answers
        # every card's positions in one batch: they differ only in the cards on the table
        after = [_after(pos, c) for c in legal for pos in positions]
        tables = best_moves_many(after)
        for j, c in enumerate(legal):
            for i, moves in enumerate(tables[j * len(positions):(j + 1) * len(positions)]):
                if not moves:
                    continue
                if len(set(moves.values())) == 1:  # whatever he plays, the same: no need to ask him
                    out[i][c] = next(iter(moves.values()))
                    continue
                key = (c, lays[i][partner])
                if key not in choice:
                    choice[key] = self._partner_answer(obs, lays[i], c, partner, [int(q) for q in moves])
                # His equal choices: he is given the best of them here (his view does not
                # tell them apart, his signals and more layouts may), so only a card his
                # view makes him get wrong costs.
                out[i][c] = min((moves[Card(q)] for q in choice[key] if Card(q) in moves),
                                default=min(moves.values()))
        return out

    def _partner_answer(
        self, obs: Observation, lay: dict[int, int], card: int, partner: int, replies: list[int],
    ) -> list[int]:
        """The partner's best cards after mine, as he would judge them: his observation
        (mine with his hand for mine, my card on the table) given to an expert of his
        own — the same sampling and inference, the fewest layouts — that scores his
        ``replies``; every card within :data:`PARTNER_MARGIN` of his best counts."""
        me = obs.seat
        played = Action.from_card(card)
        seen = replace(
            obs, seat=partner, hand=lay[partner], to_act=partner, to_play=partner,
            trick=(*obs.trick, (me, Card(card))), moves=(*obs.moves, (me, played)),
            move_phases=(*obs.move_phases, Phase.PLAY) if len(obs.move_phases) == len(obs.moves) else obs.move_phases,
            legal_actions=tuple(Action.from_card(q) for q in sorted(replies)),
        )
        if self._partner_model is None:
            self._partner_model = ExpertBot(
                self.rules, seed=self.seed, think=self.think, infer=self.infer,
                batch=self.batch, min_layouts=self.min_layouts, max_layouts=self.min_layouts,
                partner_view=False, standing=self.use_standing, all_pass_standing=self.all_pass_standing,
            )
        values = self._partner_model.card_values(seen)
        best = max(values.values())
        return sorted(q for q, v in values.items() if v >= best - PARTNER_MARGIN)

    def _play(self, obs: Observation) -> Action | None:
        legal = [a for a in obs.legal_actions if a < 32]
        if len(legal) <= 1:
            return legal[0] if legal else None
        if obs.players == 2 and deal_kind(obs) == "allpass":
            return HeuristicBot._play(self, obs)  # гусарик's all-pass: two hands a trick, no solver model
        values = self.card_values(obs)
        best = max(values.values())
        top = [c for c, v in values.items() if v >= best - 1e-9]
        if len(top) == 1:
            return Action.from_card(top[0])
        signal = self._signal(obs, top)
        if signal is not None:
            return Action.from_card(signal)
        hint = super(PimcBot, self)._play(obs)  # the heuristic's card among the equal ones
        if hint is not None and int(hint) in top:
            return hint
        return Action.from_card(min(top, key=lambda c: (c & 7, c)))

    def _signal(self, obs: Observation, top: list[int]) -> int | None:
        """A defender's card among equal ones by the rules the inference reads."""
        if deal_kind(obs) != "game" or obs.seat == obs.declarer or not obs.trick:
            return None
        trump = obs.contract.trump if obs.contract is not None else None
        led = obs.trick[0][1] >> 3
        follow = [c for c in top if c >> 3 == led]
        if follow:
            return min(follow)  # not taking the trick cheaper: follow low
        side = [c for c in top if c >> 3 != trump]
        if side:
            longest = max({c >> 3 for c in side}, key=lambda s: (obs.hand & SUIT_MASKS[s]).bit_count())
            return min(c for c in side if c >> 3 == longest)
        return None

    # ------------------------------------------------------------------ whisting
    def _declarer_layouts(self, obs: Observation, n: int) -> tuple[Knowledge, list[dict[int, int]], list[int]]:
        """With ``declarer_margin``, before the first card of a trick game (whisting, open or
        closed) the layouts are drawn again in proportion to :func:`margin_weight` of the
        declarer's double-dummy margin in each: the inference reads his bids too softly and
        leaves him a trick weaker than declarers are (``benchmarks/whist_layouts.py``)."""
        k, layouts, tricks = super()._declarer_layouts(obs, n)
        c = obs.contract
        if not self.declarer_margin or c is None or c.is_misere or obs.completed_tricks or obs.trick:
            return k, layouts, tricks
        profile = whisting_preset(self.rules, tuple(MARGINS)) if obs.players == 3 else None  # counted at three
        if profile is None:
            return k, layouts, tricks
        weights = [margin_weight(profile, margin_of(t, c.level)) for t in tricks]
        drawn = self._rng_for(obs).choices(range(len(tricks)), weights=weights, k=len(tricks))
        return k, [layouts[i] for i in drawn], [tricks[i] for i in drawn]

    def _partner_whist_odds(
        self, obs: Observation, k: Knowledge, layouts: list[dict[int, int]], partner: int, mine: str
    ) -> list[float] | None:
        """With ``partner_odds``, the odds the inference gives a defender's whist
        (:func:`.inference.whist_odds`), from the partner's cards in each layout: a partner
        with a strong hand in that layout whists, one with nothing passes, not half and half.
        With ``partner_calls`` too, shifted by how often a second defender whisted after the
        first's ``mine`` under rules that whist alike (:func:`second_whist_odds`): under
        Leningrad he joins a whisted 6 one time in ten, under Sochi half the time."""
        if not self.partner_odds or obs.contract is None:
            return None
        c = obs.contract
        trump = None if c.strain == 4 else c.strain
        odds = [whist_odds(k.hands.get(partner, lay.get(partner, 0)), trump, c.level) for lay in layouts]
        counted = (second_whist_odds(defence_profile(self.rules, obs.players), obs.players, c.level, mine)
                   if self.partner_calls else None)
        if counted is None:
            return odds
        shift = _logit(counted)
        return [1 / (1 + math.exp(-(_logit(p) + shift))) for p in odds]

    # ------------------------------------------------------------------ open or closed
    def _defence(self, obs: Observation) -> Action | None:
        """With ``open_choice``, a lone whister's open (лёжа) or closed defence: over the
        declarer's double-dummy tricks in sampled layouts, each spread over what declarers
        really took against an open and a closed lone whister (:func:`shift_odds`).  Open, the
        whister sees both defending hands and sets more games a trick short (the declarer made
        22 % of those against open defence, 38 % against closed, ``benchmarks/dd_bias.py``);
        closed, a declarer with tricks to spare may misguess.  The rule of thumb (open when the
        whister alone is short of his quota) closed the defence of the strong whisters whose
        games are the close ones.  The quota and play-on choices stay the rule of thumb's."""
        legal = obs.legal_actions
        if (not self.open_choice or obs.players == 2  # гусарик: not what the table counts measured
                or OPEN not in legal or CLOSED not in legal or PLAY in legal or QUOTA in legal):
            return super()._defence(obs)
        c = obs.contract
        assert c is not None and obs.declarer is not None
        _, _, tricks = self._declarer_layouts(obs, self.whist_samples)
        d1, d2 = _defenders(obs)
        calls = _whist_calls(obs)
        # open or closed (rules.md §5.5) is scored alike (no scoring reads ``open_play``): only the play differs
        u = game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                         seat=obs.seat, declarer=obs.declarer, contract=Contract(c.level, c.strain),
                         calls=(calls.get(d1, "pass"), calls.get(d2, "pass")))
        counts = _tally(tricks)
        open_value = _spread(u, counts, c.level, "open1")
        return OPEN if open_value >= _spread(u, counts, c.level, "closed1") else CLOSED

    # ------------------------------------------------------------------ auction
    def bid_limits(self, obs: Observation) -> dict[int, int]:
        """The sampled limits; with ``opening_rule``, at my first call in the auction no lower
        than the rule of thumb's (:meth:`.HeuristicBot.bid_limits`)."""
        limits = super().bid_limits(obs)
        if self.opening_rule and all(s != obs.seat for s, _ in obs.moves) and not self._games_cheapened(obs):
            # Measured: where the expert passed a first call that `hard` opened, `hard` did better
            # in all six runs looked at (docs/bots.md, «Issue 29, third step»): the sampled limit
            # of a hand near a 6 flips with the layouts drawn, and a pass is not worth 0.
            rule = HeuristicBot.bid_limits(self, obs)
            return {s: max(limits[s], rule[s]) for s in limits}
        return limits

    def _talon_strain_counts(
        self, obs: Observation, layouts: list[dict[int, int]], solved: dict[int, list[int]]
    ) -> list[int] | None:
        """With ``talon_strain``, my double-dummy tricks over ``layouts`` (``counts[t]`` layouts
        with ``t``) when I name the strain after seeing the talon: in each layout the strain of
        ``solved`` (each strain's tricks, layout by layout) that my twelve cards estimate best,
        each with its heuristic discard.  The choice reads the talon and my cards, never the
        others' hands.  ``None`` without the option or with one strain solved."""
        if not self.talon_strain or len(solved) < 2:
            return None
        counts = [0] * 11
        for i, lay in enumerate(layouts):
            counts[solved[_named_strain(obs.hand | lay.get(OUT, 0), solved)][i]] += 1
        return counts

    def _talon_strain_limit(self, obs: Observation, layouts: list[dict[int, int]], solved: dict[int, list[int]]) -> int:
        """The highest level whose game is worth playing when I name its strain after seeing the
        talon (:meth:`_talon_strain_counts`; 0: none).  A hand whose strains each fall short
        may still make a game once the talon says which suit to play: judged strain by strain,
        the talon that helps one strain counts against the others."""
        counts = self._talon_strain_counts(obs, layouts, solved)
        if counts is None:
            return 0
        limit = self._highest_level(obs, counts, 0)
        if limit >= 6 or not self.close_plan or self.think < CLOSE_THINK or _bid_made(obs) or obs.players == 2:
            return limit  # гусарик's auction stays as solved (docs/bots.md)
        u = game_utility(self.rules, standing=self._standing(obs), players=obs.players, dealer=obs.dealer,
                         seat=obs.seat, declarer=obs.seat, contract=Contract(6, 0), calls=("whist", "whist"))
        if self._game_value(u, counts, 6, obs.players) < -CLOSE_MARGIN * len(layouts):
            return limit
        return self._highest_level(obs, self._planned_counts(obs, layouts, solved), 0)

    def _planned_counts(
        self, obs: Observation, layouts: list[dict[int, int]], solved: dict[int, list[int]]
    ) -> list[int]:
        """My double-dummy tricks over ``layouts`` (``counts[t]`` layouts with ``t``) in the strain
        named after the talon (as :meth:`_talon_strain_counts`), each layout's twelve cards
        discarded as the talon plan would: of its :func:`.pimc.discard_candidates`, the one that
        takes the most tricks over :data:`CLOSE_LAYOUTS` deals of the unseen cards (not that
        layout's: the plan does not see the others' hands).  The rule of thumb's discard leaves
        a close hand 0.15–0.23 tricks short of the plan's (sixty hands of 5–6½ estimated tricks).
        Only a close opening call pays for this (:data:`CLOSE_MARGIN`): it solves 30 times as much."""
        k = Knowledge.of(obs)
        focus = k.active.index(obs.seat)
        others = [i for i in range(3) if i != focus]
        rng = self._rng_for(obs)
        plans: list[tuple[int, list[int]]] = []
        positions = []
        for lay in layouts:
            full = obs.hand | lay.get(OUT, 0)
            s = _named_strain(full, solved)
            pairs = discard_candidates(full, s, CANDIDATES)
            unseen = [c for c in range(32) if not full >> c & 1]
            for _ in range(CLOSE_LAYOUTS):
                rng.shuffle(unseen)
                h = [0, 0, 0]
                h[others[0]] = sum(1 << c for c in unseen[:10])
                h[others[1]] = sum(1 << c for c in unseen[10:20])
                for d in pairs:
                    h[focus] = full & ~d
                    positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=None if s == 4 else s))
            plans.append((s, pairs))
        tricks = solve_many(positions)
        finals = []
        at = 0
        for lay, (s, pairs) in zip(layouts, plans, strict=True):
            n = len(pairs)
            block = tricks[at: at + n * CLOSE_LAYOUTS]
            at += n * CLOSE_LAYOUTS
            sums = [sum(block[j * n + i] for j in range(CLOSE_LAYOUTS)) for i in range(n)]
            h = list(self._hands(k, lay))
            h[focus] = obs.hand | lay.get(OUT, 0)
            h[focus] &= ~pairs[max(range(n), key=lambda i: sums[i])]
            finals.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=None if s == 4 else s))
        return _tally(solve_many(finals))

    def _bidding(self, obs: Observation) -> Action | None:
        choice = super()._bidding(obs)
        if choice == PASS:
            odds = self.all_pass_odds(obs)
            if odds < 1 and self._games_cheapened(obs):
                odds = 0.0  # the sampled limits weighed the standing; the all-pass share does not
            if odds:
                bid = self._bid_over_all_pass(obs, odds)
                if bid is not None:
                    return bid
        return choice

    def _games_cheapened(self, obs: Observation) -> bool:
        """Does the pulka's standing make a game I declare worth less than alone (a closed pool
        helping below its price, :mod:`.value`)?  Then the first call follows the sampled limits,
        which weigh it, and not the rule of thumb or the all-pass share, which do not."""
        standing = self._standing(obs)
        if standing is None:
            return False
        kw: dict[str, Any] = {"players": obs.players, "dealer": obs.dealer, "seat": obs.seat,
                              "declarer": obs.seat, "contract": Contract(6, 0), "calls": ("whist", "whist")}
        alone, there = game_utility(self.rules, **kw), game_utility(self.rules, standing=standing, **kw)
        return any(b < a - 1e-9 for a, b in zip(alone[6:], there[6:], strict=True))

    def all_pass_odds(self, obs: Observation) -> float:
        """The odds that my pass ends in an all-pass: 1 when every other player has passed,
        ``rival_pass`` to the power of the players still to speak when none has bid yet, 0
        once someone has bid (or in гусарик, see :meth:`_pass_means_all_pass`)."""
        if obs.players == 2:
            return 0.0
        if self._pass_means_all_pass(obs):
            return 1.0
        if _bid_made(obs):
            return 0.0
        spoken = {s for s, _ in obs.moves}
        waiting = sum(1 for s in active_seats(obs) if s != obs.seat and s not in spoken)
        return float(self.rival_pass**waiting)

    def _pass_means_all_pass(self, obs: Observation) -> bool:
        """Every other active seat has passed (and none bid): my pass ends in all-pass.

        Never in гусарик: its all-pass is two hands a trick, which the solver's
        three-hand all-pass does not model, so the comparison is not made there.
        """
        if obs.players == 2:
            return False
        active = active_seats(obs)
        passed = {s for s, a in obs.moves if a == PASS}
        return not _bid_made(obs) and all(s in passed for s in active if s != obs.seat)

    def _bid_over_all_pass(self, obs: Observation, odds: float = 1.0) -> Action | None:
        """The lowest game bid when it is worth more than a pass, a pass being worth the
        all-pass (sampled) times the ``odds`` that it ends in one."""
        values = self.all_pass_values(obs)
        if values is None:
            return None
        lowest, game, all_pass = values
        return lowest if game > odds * all_pass else None

    def all_pass_values(self, obs: Observation) -> tuple[Action, float, float] | None:
        """The lowest game bid, and the expected net whists of playing it (the better of the
        two most promising strains) and of the all-pass a pass makes, over the same sampled
        talons and layouts — with ``all_pass_standing``, on the pulka's standing (the series'
        step, a bomb; off by default: measured, it did not pay, see ``docs/bots.md``).
        ``None`` when no game may be bid."""
        bids = [a for a in obs.legal_actions if a.is_bid and not a.is_dark and a.contract is not None
                and not a.contract.is_misere and not a.contract.without_talon]
        if not bids or self.bid_samples <= 0:
            return None
        lowest = bids[0]
        assert lowest.contract is not None
        level = lowest.contract.level
        k, layouts = self._layouts(obs, self.bid_samples)
        me = obs.seat
        focus = k.active.index(me)
        hand = obs.hand
        ap_tricks = self._solve_all_pass(obs, k, layouts)
        alone = allpass_utility(self.rules, players=obs.players, dealer=obs.dealer, seat=me)
        standing = self._standing(obs) if self.all_pass_standing else None
        u_ap = allpass_utility(self.rules, standing=standing, players=obs.players, dealer=obs.dealer, seat=me)
        # The solved all-pass (both others giving me tricks) is pessimistic, and so is the solved
        # game: the plain comparison (alone, or at the first step) stands as measured.  What the
        # standing adds — a later step of the series — is charged on the all-pass as it is really
        # played, the solved tricks less ALLPASS_PESSIMISM (else that pessimism is multiplied too).
        real = [t - ALLPASS_PESSIMISM for t in ap_tricks]
        extra = [_at(u_ap, t) - _at(alone, t) for t in real] if u_ap != alone else [0.0] * len(real)
        if self.dd_bias:
            # the all-pass as really played too: the solved tricks less ALLPASS_PESSIMISM
            all_pass = sum(_at(alone, t) + x for t, x in zip(real, extra, strict=True)) / len(layouts)
        else:
            all_pass = sum(alone[t] + x for t, x in zip(ap_tricks, extra, strict=True)) / len(layouts)
        est = self.estimates(hand)
        best_game = float("-inf")
        solved: dict[int, list[int]] = {}
        for s in sorted(range(5), key=lambda s: -est[s])[: self.strains]:
            positions = []
            for lay in layouts:
                full = hand | lay.get(OUT, 0)
                h = list(self._hands(k, lay))
                h[focus] = full & ~choose_discard(full, s) if full.bit_count() == 12 else full
                positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, trump=None if s == 4 else s))
            u = game_utility(self.rules, standing=standing,
                             players=obs.players, dealer=obs.dealer, seat=me, declarer=me,
                             contract=Contract(level, s), calls=("whist", "whist"))
            counts = [0] * 11
            solved[s] = solve_many(positions)
            for t in solved[s]:
                counts[t] += 1
            # Both sides of the comparison are pessimistic: the game is solved against
            # a defence that sees every card (real defenders let more through), the
            # all-pass against two players who both play to give tricks.  A further
            # demand that the game be made in most layouts (60 % once) passed hands
            # whose game, though often lost, costs less than their all-pass.
            best_game = max(best_game, self._game_value(u, counts, level, obs.players) / len(layouts))
        chosen = self._talon_strain_counts(obs, layouts, solved) if lowest.contract.strain == 0 else None
        if chosen is not None:
            u = game_utility(self.rules, standing=standing, players=obs.players, dealer=obs.dealer, seat=me,
                             declarer=me, contract=Contract(level, 0), calls=("whist", "whist"))
            best_game = max(best_game, self._game_value(u, chosen, level, obs.players) / len(layouts))
        return lowest, best_game, all_pass

    def all_pass_tricks(self, obs: Observation) -> list[int]:
        """My tricks in the all-pass a pass would make, solved in each layout the auction samples
        (the two others both playing to give me tricks: :data:`ALLPASS_PESSIMISM`)."""
        return self._solve_all_pass(obs, *self._layouts(obs, self.bid_samples))

    def _solve_all_pass(self, obs: Observation, k: Knowledge, layouts: list[dict[int, int]]) -> list[int]:
        focus = k.active.index(obs.seat)
        mode = self.rules.raspas_talon_for(obs.players)
        positions = []
        for lay in layouts:
            h = list(self._hands(k, lay))
            talon = tuple(Card(c) for c in sorted(_cards(lay.get(OUT, 0)))) if mode != "unused" else ()
            positions.append(Position(hands=(h[0], h[1], h[2]), declarer=focus, goal="allpass",
                                      talon=talon, talon_mode=mode))
        return solve_many(positions)

    # ------------------------------------------------------------------ hints
    def option_values(self, obs: Observation) -> dict[Action, float]:
        """Expected net whists of each choice this level scores here (card play,
        whisting, concessions); empty where it chooses by other means (the
        auction's limits, the discard plan)."""
        phase = obs.phase
        if phase == Phase.PLAY:
            return {Action.from_card(c): v for c, v in self.card_values(obs, every_card=True).items()}
        if phase == Phase.WHIST:
            return self.whist_values(obs)
        if phase == Phase.CONCESSION:
            return self.concession_values(obs)
        return {}

    def hint(self, observation: Observation) -> list[tuple[Action, float | None]]:
        """Every legal action with its expected score in net whists, best first.

        Where this level does not score the options (auction calls, the discard,
        the defence's open/closed choice) the list holds the chosen action alone
        with ``None``.
        """
        values = self.option_values(observation)
        if not values:
            return [(self.act(observation), None)]
        return [(a, v) for a, v in sorted(values.items(), key=lambda kv: (-kv[1], int(kv[0])))]

    def explain(self, observation: Observation) -> dict[Action, float]:
        """The scored options (:meth:`option_values`): what ``Table.hint`` shows."""
        return self.option_values(observation)


def _resampled(
    obs: Observation, k: Knowledge, ev: Evidence, n: int, oversample: int, rng: random.Random,
) -> list[dict[int, int]]:
    """``n`` layouts resampled in proportion to their weight from ``oversample * n`` uniform ones."""
    pool = sample_layouts(k, oversample * n, rng)
    weights = [layout_weight(obs, k, lay, ev) for lay in pool]
    total = sum(weights)
    # systematic resampling: n evenly spaced pointers into the cumulative weights
    step = total / n
    u = rng.random() * step
    out: list[dict[int, int]] = []
    acc = 0.0
    i = -1
    for j in range(n):
        target = u + j * step
        while acc <= target and i + 1 < len(pool):
            i += 1
            acc += weights[i]
        out.append(dict(pool[i]))
    return out


def _named_strain(full: int, solved: dict[int, list[int]]) -> int:
    """The strain of ``solved`` a declarer names after seeing the talon: the one his twelve
    cards ``full`` estimate best, each with its heuristic discard."""
    twelve = full.bit_count() == 12
    return max(solved, key=lambda s: strain_tricks(full & ~choose_discard(full, s) if twelve else full, s))


def _tally(tricks: Sequence[int]) -> list[int]:
    """``counts[t]``: how many of ``tricks`` are ``t`` (0–10)."""
    counts = [0] * 11
    for t in tricks:
        counts[t] += 1
    return counts


def _bid_made(obs: Observation) -> bool:
    """Has anyone made a bid (a game or misère) in this auction?"""
    return any(a is not None and (a.is_bid or a == MISERE) for _, a in obs.moves)


def _spread(
    u: Sequence[float], counts: Sequence[int], level: int, situation: str, profile: str | None = None, players: int = 3
) -> float:
    """``sum(n * u[t])`` over the counts, each ``t`` spread by :func:`shift_odds` (the auction's
    with a defence ``profile``: by :func:`auction_odds`)."""
    total = 0.0
    for t, n in enumerate(counts):
        if n:
            odds = (auction_odds(profile, players, level, t - level) if situation == "auction" and profile
                    else shift_odds(situation, t - level))
            total += n * sum(p * u[max(0, min(10, t + k))] for k, p in odds)
    return total


DEFENCE_OPTIONS = (
    "game_values", "whist_mult", "remiz_mult", "pen_mult", "cons_mult", "lone_fail_style", "lone_quota",
    "norm1_both_fail", "whister_quota", "half_whist_levels", "first_defender_half_whist",
    "first_defender_second_call", "half_whist_played", "za_svoimi", "stalingrad", "open_timing", "bez_trekh",
)
"""The options that decide how a game is defended (who whists, open or closed): rules that share
them with a preset counted in :data:`.defence_mix_table.DEFENCE` share its defence mix."""

MIX_PRIOR = 10
"""Games of the pooled mix (every counted trick game) added to each level's defence mix."""


@lru_cache(maxsize=32)
def whisting_preset(rules: Rules, presets: tuple[str, ...]) -> str | None:
    """The first of ``presets`` whose whisting and scoring options (:data:`DEFENCE_OPTIONS`)
    ``rules`` share, or ``None``: a table counted under it was defended as ``rules`` would be.
    Rostov, classic and Kodeks whist as Sochi does:

    >>> whisting_preset(Rules.preset("rostov"), ("leningrad", "sochi"))
    'sochi'
    >>> whisting_preset(Rules.preset("sochi").replace(whist_mult=2), ("leningrad", "sochi")) is None
    True
    """
    for name in presets:
        preset = Rules.preset(name)
        if all(getattr(rules, o) == getattr(preset, o) for o in DEFENCE_OPTIONS):
            return name
    return None


def defence_profile(rules: Rules, players: int) -> str | None:
    """The preset counted in :data:`.defence_mix_table.DEFENCE` at a table of ``players`` that
    whists as ``rules`` do (:func:`whisting_preset`), or ``None``:

    >>> defence_profile(Rules.preset("rostov"), 3), defence_profile(Rules.preset("leningrad"), 3)
    ('sochi', 'leningrad')
    """
    return whisting_preset(rules, tuple(name for name, tables in DEFENCE.items() if players in tables))


MARGIN_RANGE = range(-3, 3)
"""The declarer's double-dummy margins over his contract that are told apart (clipped to
−3…+2): in :data:`.whist_margin_table.MARGINS` and ``benchmarks/dd_bias.py``'s tables."""


def margin_of(tricks: int, level: int) -> int:
    """The declarer's double-dummy tricks over his contract, clipped to :data:`MARGIN_RANGE`."""
    return max(MARGIN_RANGE[0], min(MARGIN_RANGE[-1], tricks - level))


@lru_cache(maxsize=64)
def margin_weight(profile: str, margin: int) -> float:
    """How much likelier a declarer's double-dummy ``margin`` is among true declarers than
    among the layouts the expert draws for the first whisting call, under the counted preset
    ``profile`` (:data:`.whist_margin_table.MARGINS`, each share with half a game added).
    A declarer double-dummy sets by three is never seen, one who makes his contract exactly
    or with a trick over is seen more than twice as often as drawn:

    >>> margin_weight("leningrad", -3) < 0.05 < 1 < margin_weight("leningrad", 0)
    True
    """
    counts = MARGINS[profile]
    true, drawn = counts["true"], counts["drawn"]
    added = 0.5 * len(MARGIN_RANGE)  # half a game at each margin
    share_true = (true.get(margin, 0) + 0.5) / (sum(true.values()) + added)
    share_drawn = (drawn.get(margin, 0) + 0.5) / (sum(drawn.values()) + added)
    return share_true / share_drawn


CALLS_PRIOR = 2
"""Calls of even odds added to a level's counted second calls (:func:`second_whist_odds`)."""


def second_whist_odds(profile: str | None, players: int, level: int, first: str) -> float | None:
    """How often the second defender whisted after the first defender's call ``first``
    (``"whist"`` or ``"pass"``) in games of ``level`` under the counted preset ``profile``
    (:data:`.defence_mix_table.CALLS`, with :data:`CALLS_PRIOR` calls of even odds); ``None``
    without a profile or a count.  A half-whist counts as no whist:

    >>> round(second_whist_odds("leningrad", 3, 6, "whist"), 2), round(second_whist_odds("sochi", 3, 6, "whist"), 2)
    (0.09, 0.53)
    """
    if profile is None:
        return None
    seconds = CALLS.get(profile, {}).get(players, {}).get(level, {}).get(first)
    if not seconds:
        return None
    return (seconds.get("whist", 0) + CALLS_PRIOR / 2) / (sum(seconds.values()) + CALLS_PRIOR)


def _logit(p: float) -> float:
    """The log-odds of ``p``, kept off 0 and 1."""
    p = min(max(p, 0.01), 0.99)
    return math.log(p / (1 - p))


@lru_cache(maxsize=256)
def auction_odds(profile: str, players: int, level: int, margin: int) -> tuple[tuple[int, float], ...]:
    """:func:`shift_odds` of a game not yet defended under the counted preset ``profile``:
    each situation's odds weighted by how often games of ``level`` at a table of ``players``
    met it there (:data:`.defence_mix_table.DEFENCE`, with :data:`MIX_PRIOR` games of the
    pooled mix).  Under Leningrad a 6 meets one open whister nine times in ten, who lets a
    game double-dummy sets by one through less often than two closed whisters do:

    >>> made = lambda odds: sum(p for k, p in odds if k >= 1)  # set by one, made after all
    >>> round(made(auction_odds("leningrad", 3, 6, -1)), 2), round(made(shift_odds("auction", -1)), 2)
    (0.25, 0.36)
    """
    row = DEFENCE[profile][players].get(level, {})
    pooled = {s: sum(sum(shifts.values()) for shifts in COUNTS.get(s, {}).values())
              for s in ("closed1", "open1", "closed2")}
    total = sum(pooled.values())
    weights = {s: row.get(s, 0) + MIX_PRIOR * n / total for s, n in pooled.items()}
    weights.update({s: n for s, n in row.items() if s not in weights})
    norm = sum(weights.values())
    odds: dict[int, float] = {}
    for s, w in weights.items():
        for k, p in shift_odds(s, margin):
            odds[k] = odds.get(k, 0.0) + w / norm * p
    return tuple(sorted(odds.items()))


PRIOR = 10
"""Games of a situation's pooled spread added to each margin's row (a thin row leans on it)."""


@lru_cache(maxsize=64)
def shift_odds(situation: str, margin: int) -> tuple[tuple[int, float], ...]:
    """How many tricks more than double-dummy a declarer takes at the table, with odds:
    ``(shift, probability)`` when double-dummy gives him ``margin`` tricks over his
    contract (a misère: ``margin`` tricks).  ``situation``: ``"auction"`` (the defence
    not known yet: every trick game counted), ``"whist1"`` or ``"whist2"`` (one or two
    whisters), ``"open1"`` or ``"closed1"`` (a lone whister open or closed), ``"closed2"``
    (two whisters, the same as ``"whist2"``), ``"closed0"`` (a ten played unwhisted), ``"misere"``.
    From :data:`.dd_bias_table.COUNTS` (``benchmarks/dd_bias.py``)."""
    keys = {"auction": ("closed1", "open1", "closed2"), "whist1": ("closed1", "open1"),
            "open1": ("open1",), "closed1": ("closed1",), "closed0": ("closed0",),
            "whist2": ("closed2",), "closed2": ("closed2",), "misere": ("misere",)}[situation]
    rows: dict[int, dict[int, int]] = {}
    for key in keys:
        for m, shifts in COUNTS.get(key, {}).items():
            row = rows.setdefault(m, {})
            for k, n in shifts.items():
                row[k] = row.get(k, 0) + n
    pooled: dict[int, int] = {}
    for row in rows.values():
        for k, n in row.items():
            pooled[k] = pooled.get(k, 0) + n
    total = sum(pooled.values())
    if not total:
        return ((0, 1.0),)
    m = max(min(rows, default=0), min(max(rows, default=0), margin))
    row = rows.get(m, {})
    n = sum(row.values())
    odds = {k: (row.get(k, 0) + PRIOR * pooled[k] / total) / (n + PRIOR) for k in pooled}
    return tuple(sorted(odds.items()))


def _at(utility: tuple[float, ...], tricks: float) -> float:
    """A per-tricks utility at a fractional number of tricks (linear between whole ones, 0 at least)."""
    t = min(max(tricks, 0.0), float(len(utility) - 1))
    low = int(t)
    if low == len(utility) - 1:
        return utility[low]
    return utility[low] + (t - low) * (utility[low + 1] - utility[low])


def _after(pos: Position, card: int) -> Position:
    """The position once the player to move has played ``card``."""
    i = pos.to_play
    h = list(pos.hands)
    h[i] &= ~(1 << card)
    return replace(pos, hands=(h[0], h[1], h[2]), trick=(*pos.trick, Card(card)))


def _step(pos: Position, card: int, focus: int) -> tuple[Position, int]:
    """The position once ``card`` is played, and 1 if that completes a trick the focus takes."""
    won = len(pos.trick) == 2 and pos.trick_winner((*pos.trick, Card(card))) == focus
    return pos.play(card), int(won)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _settled(rows: list[tuple[float, dict[int, float]]], legal: list[int]) -> bool:
    """The convergence test: the best card's lead over the second, layout by
    layout, is sure (``CONFIDENCE`` standard errors) or negligible (``SAME``)."""
    wsum = sum(w for w, _ in rows)
    if wsum <= 0 or len(legal) < 2:
        return True
    means = {c: sum(w * r.get(c, 0.0) for w, r in rows) / wsum for c in legal}
    first, second = sorted(legal, key=lambda c: -means[c])[:2]
    diffs = [(w, r.get(first, 0.0) - r.get(second, 0.0)) for w, r in rows]
    d = means[first] - means[second]
    var = sum(w * (x - d) ** 2 for w, x in diffs) / wsum
    n_eff = wsum * wsum / sum(w * w for w, _ in diffs)
    se = math.sqrt(var / max(1.0, n_eff - 1))
    return d > CONFIDENCE * se or (d < SAME and se < SAME)
