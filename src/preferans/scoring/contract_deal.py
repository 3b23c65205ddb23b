"""Writing a trick game or a misère on the sheet (rules.md §9.2, §5.2–§5.4, §7).

Functions here take a validated :class:`~preferans.engine.result.DealResult` and
return the sheet lines (:class:`~preferans.scoring.sheet.Entry`) it writes.
``coeff`` is the deal's whole coefficient: dark game × bombs (classic,
Kodeks 3.3.19); it multiplies every amount of the deal.
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.result import DealKind, DealResult, DefenceCall
from ..rules import Rules
from ..seats import DUMMY, active_seats, defenders_of
from .sheet import Amount, Entry

__all__ = ["QUOTA", "score_game", "score_misere", "sold_aces"]

# Defenders' quota by level (Kodeks 3.8.2; rules.md §5.2).
QUOTA = (0, 0, 0, 0, 0, 0, 4, 2, 1, 1, 1)

WHIST = DefenceCall.WHIST
PASS = DefenceCall.PASS
HALF = DefenceCall.HALF


def _part(x: int, num: int, den: int) -> Amount:
    """``x * num / den`` as an int when exact, else a Fraction."""
    p = x * num
    return p // den if p % den == 0 else Fraction(p, den)


def _times(x: Amount, k: Amount) -> Amount:
    p = x * k
    if isinstance(p, Fraction) and p.denominator == 1:
        return p.numerator
    return p


def sold_aces(result: DealResult, rules: Rules) -> int:
    """«Проданные тузы» (seed-002 p.14; rules.md §9.3): the whist prices the 4-handed dealer
    writes for the talon — aces, sure tricks, or the Leningrad table's scale.

    >>> from preferans.cards import parse_cards
    >>> r = DealResult(DealKind.GAME, 4, 0, 1, None, talon=tuple(parse_cards("A♠ K♠")))
    >>> [sold_aces(r, Rules(dealer_talon_whists=m)) for m in ("aces", "sure_tricks", "leningrad")]
    [1, 2, 2]
    """
    mode = rules.dealer_talon_whists
    if mode == "none" or not result.talon:
        return 0
    cards = result.talon
    mask = 0
    for c in cards:
        mask |= 1 << c
    aces = sum(1 for c in cards if c % 8 == 7)
    if mode == "aces":
        return aces
    # A king under an ace of its suit in the talon (cards are suit × 8 + rank, ace = 7).
    kings = sum(1 for c in cards if c % 8 == 6 and mask >> (c + 1) & 1)
    if mode == "sure_tricks":
        return aces + kings
    # leningrad: two aces 3, ace-king of a suit 2, king-queen of a suit 1, one ace 1.
    if aces == 2:
        return 3
    if kings:
        return 2
    if any(c % 8 == 5 and mask >> (c + 1) & 1 for c in cards):
        return 1
    return aces


def score_game(result: DealResult, rules: Rules, coeff: int = 1) -> list[Entry]:
    """Sheet lines of a trick game (played, not played, checked or conceded)."""
    out = _score_game(result, rules, coeff)
    if result.players == 2:
        # гусарик (rules.md §16): the dummy is a passed partner whom nothing is written for.
        return [e for e in out if e.player != DUMMY]
    return out


def _score_game(result: DealResult, rules: Rules, coeff: int) -> list[Entry]:
    contract = result.contract
    decl = result.declarer
    assert contract is not None and decl is not None
    level = contract.level
    v = rules.game_values[level - 6] * coeff  # rules.md §9.2: v = V(level) * coeff
    wp = rules.whist_mult * v  # whist price per defender's trick
    quota = QUOTA[level]
    d1, d2 = defenders_of(active_seats(result.dealer, result.players), decl)
    defence = result.defence
    out: list[Entry] = []

    if result.players == 4 and rules.dealer_talon_whists != "none" and not contract.without_talon:
        k = sold_aces(result, rules)
        if k:  # rules.md §9.3 (house agreement): the dealer writes the whist price per sold ace
            out.append(Entry("whists", result.dealer, wp * k, decl, "sold-aces"))

    if result.talon_shown_by_dealer and result.players == 4 and rules.dealer_shown_talon_whists:
        # The dealer showed the talon: the declarer writes whist prices on him (rules.md §3.3).
        out.append(Entry("whists", decl, wp * rules.dealer_shown_talon_whists, result.dealer, "talon-shown"))

    if result.conceded == 3:  # «без трёх без вистов» (rules.md §4.5): remiz for 3, no whists
        u = 3
        out.append(Entry("mountain", decl, rules.remiz_mult * v * u, -1, "remiz"))
        if rules.bez_trekh_consolation == "yes":
            _consolation(out, result, rules, v, u, (d1, d2))
        return out

    if result.kind is DealKind.NOT_PLAYED:
        out.append(Entry("pool", decl, v, -1, "game"))
        _totus_bonus(out, result, rules)
        c1, c2 = defence.get(d1, PASS), defence.get(d2, PASS)
        if c1 is HALF or c2 is HALF:
            # Полвиста accepted: half the quota at the whist price (rules.md §5.4).
            hw = d1 if c1 is HALF else d2
            out.append(Entry("whists", hw, _part(wp, quota, 2), decl, "half-whist"))
        elif c1 is WHIST or c2 is WHIST:
            # «За своими» (seed-002 p.27): as for 2 tricks on a 6, 1 on a 7.
            w = d1 if c1 is WHIST else d2
            out.append(Entry("whists", w, _part(wp, quota, 2), decl, "za-svoimi"))
        return out

    tricks = result.tricks
    if result.conceded == 10 and not tricks:
        # Kodeks 3.5.4 «без всех»: the declarer took nothing (rules.md §15).
        tricks = {decl: 0, d1: 5, d2: 5}
    dt = tricks.get(decl, 0)
    t1, t2 = tricks.get(d1, 0), tricks.get(d2, 0)
    side = t1 + t2
    u = level - dt if dt < level else 0

    if result.dealer_whist:
        return _dealer_whisted(out, result, rules, v, wp, u, side)
    if defence.get(d1) is HALF or defence.get(d2) is HALF:
        return _half_whist_played(out, result, rules, v, wp, u, side, d1, d2)
    whisters = tuple(d for d in (d1, d2) if defence.get(d) is WHIST)
    if result.ten_checked or (result.conceded == 10 and not whisters):
        whisters = (d1, d2)  # checked 10 (seed-002 p.26): both count as whisters
    elif not whisters:  # nobody whisted: the game counts as made (seed-002 p.25)
        out.append(Entry("pool", decl, v, -1, "game"))
        _totus_bonus(out, result, rules)
        return out

    if u == 0:
        out.append(Entry("pool", decl, v, -1, "game"))
        _totus_bonus(out, result, rules)
        if len(whisters) == 2:
            if t1:
                out.append(Entry("whists", d1, wp * t1, decl, "whist"))
            if t2:
                out.append(Entry("whists", d2, wp * t2, decl, "whist"))
            short = quota - side
            if result.ten_checked or result.conceded == 10:
                pass  # a checked or conceded 10 has no whisters' quota
            elif rules.whister_quota == "own" or (rules.whister_quota == "own_last" and quota > 1):
                _charge_own(out, rules, v, quota, d1, t1, d2, t2)
            elif short > 0 and rules.whister_quota == "own_last":  # 8–10: only the last whister
                out.append(Entry("mountain", d2, _times(rules.pen_mult * v, short), -1, "penalty"))
            elif short > 0:
                _charge_two(out, rules, v, quota, short, d1, t1, d2, t2)
        else:
            w = whisters[0]
            if side:
                out.append(Entry("whists", w, wp * side, decl, "whist"))  # all the side's tricks
            owed: Amount = quota if rules.lone_quota == "full" else Fraction(quota, 2)
            short_l = owed - side
            if short_l > 0:  # responsibility (rules.md §5.3)
                out.append(Entry("mountain", w, _times(rules.pen_mult * v, short_l), -1, "penalty"))
        return out

    # The declarer failed: remiz and consolation (rules.md §9.2, Kodeks 3.8.1.2).
    out.append(Entry("mountain", decl, rules.remiz_mult * v * u, -1, "remiz"))
    if result.ten_checked and rules.ten_mode == "checked_remiz_only":
        return out  # a failed checked 10 writes the remiz only: no whists, no consolation
    c = rules.cons_mult * v * u
    if len(whisters) == 2:
        out.append(Entry("whists", d1, wp * t1 + c, decl, "whist"))
        out.append(Entry("whists", d2, wp * t2 + c, decl, "whist"))
    else:
        w = whisters[0]
        p = d2 if w == d1 else d1
        if rules.lone_fail_style == "greedy" or result.players == 2:  # жлобский; the dummy writes nothing
            out.append(Entry("whists", w, wp * side + c, decl, "whist"))
            out.append(Entry("whists", p, c, decl, "consolation"))
        else:  # джентльменский (Leningrad): everything split in half
            half = _part(wp * side + 2 * c, 1, 2)
            out.append(Entry("whists", w, half, decl, "whist"))
            out.append(Entry("whists", p, half, decl, "whist"))
    if result.players == 4 and rules.consolation_by_dealer:
        out.append(Entry("whists", result.dealer, c, decl, "consolation"))
    return out


def _totus_bonus(out: list[Entry], result: DealResult, rules: Rules) -> None:
    """A made totus writes ``totus_bonus`` more in the pool (rules.md §3.1)."""
    if result.contract is not None and result.contract.totus and rules.totus_bonus:
        assert result.declarer is not None
        out.append(Entry("pool", result.declarer, rules.totus_bonus * result.multiplier, -1, "totus"))


def _dealer_whisted(
    out: list[Entry], result: DealResult, rules: Rules, v: int, wp: int, u: int, side: int
) -> list[Entry]:
    """dealer_whist (rules.md §5.6): the 4-handed dealer defended with both hands, so he writes
    the side's whists, both defenders' consolations (and his own) and answers for the quota."""
    decl, dealer = result.declarer, result.dealer
    assert decl is not None and result.contract is not None
    quota = QUOTA[result.contract.level]
    if u == 0:
        out.append(Entry("pool", decl, v, -1, "game"))
        if side:
            out.append(Entry("whists", dealer, wp * side, decl, "whist"))
        owed: Amount = quota if rules.lone_quota == "full" else Fraction(quota, 2)
        if owed > side:
            out.append(Entry("mountain", dealer, _times(rules.pen_mult * v, owed - side), -1, "penalty"))
        return out
    out.append(Entry("mountain", decl, rules.remiz_mult * v * u, -1, "remiz"))
    c = rules.cons_mult * v * u
    own = c if rules.consolation_by_dealer else 0
    out.append(Entry("whists", dealer, wp * side + 2 * c + own, decl, "whist"))
    return out


def _half_whist_played(
    out: list[Entry], result: DealResult, rules: Rules, v: int, wp: int, u: int, side: int, d1: int, d2: int
) -> list[Entry]:
    """half_whist_played (rules.md §5.4): the half-whister defended alone for half the quota:
    credited his side's tricks up to it, charged for the shortfall below it."""
    decl = result.declarer
    assert decl is not None and result.contract is not None
    hw, passer = (d1, d2) if result.defence.get(d1) is HALF else (d2, d1)
    half = Fraction(QUOTA[result.contract.level], 2)
    credit = _times(wp, min(Fraction(side), half))
    if u == 0:
        out.append(Entry("pool", decl, v, -1, "game"))
        if credit:
            out.append(Entry("whists", hw, credit, decl, "half-whist"))
        if side < half:
            out.append(Entry("mountain", hw, _times(rules.pen_mult * v, half - side), -1, "penalty"))
        return out
    out.append(Entry("mountain", decl, rules.remiz_mult * v * u, -1, "remiz"))
    c = rules.cons_mult * v * u
    out.append(Entry("whists", hw, credit + c, decl, "half-whist"))
    out.append(Entry("whists", passer, c, decl, "consolation"))
    if result.players == 4 and rules.consolation_by_dealer:
        out.append(Entry("whists", result.dealer, c, decl, "consolation"))
    return out


def _consolation(
    out: list[Entry], result: DealResult, rules: Rules, v: int, u: int, defenders: tuple[int, int]
) -> None:
    c = rules.cons_mult * v * u
    decl = result.declarer
    assert decl is not None
    for d in defenders:
        out.append(Entry("whists", d, c, decl, "consolation"))
    if result.players == 4 and rules.consolation_by_dealer:
        out.append(Entry("whists", result.dealer, c, decl, "consolation"))


def _charge_two(
    out: list[Entry],
    rules: Rules,
    v: int,
    quota: int,
    short: int,
    d1: int,
    t1: int,
    d2: int,
    t2: int,
) -> None:
    """Both whisted and the side is short (rules.md §5.2 allocation).  ``shared``: the one below
    his half answers for the whole shortfall, or each for his own deficit when both are below;
    ``own_if_short``: each below his half for his own deficit always."""
    pen = rules.pen_mult * v
    if quota == 1:  # 8–10: both took nothing
        if rules.norm1_both_fail == "second":  # only the second whister answers for the trick
            out.append(Entry("mountain", d2, _times(pen, 1), -1, "penalty"))
            return
        each: Amount = 1 if rules.norm1_both_fail == "both_full" else Fraction(1, 2)
        out.append(Entry("mountain", d1, _times(pen, each), -1, "penalty"))
        out.append(Entry("mountain", d2, _times(pen, each), -1, "penalty"))
        return
    half2 = quota  # compare 2*tricks with the quota to stay in integers
    low1, low2 = 2 * t1 < half2, 2 * t2 < half2
    if (low1 and low2) or rules.whister_quota == "own_if_short":  # each for his own deficit
        for d, t in ((d1, t1), (d2, t2)):
            if 2 * t < half2:
                out.append(Entry("mountain", d, _times(pen, Fraction(quota - 2 * t, 2)), -1, "penalty"))
    else:  # the one below half answers for the whole shortfall
        low = d1 if low1 else d2
        out.append(Entry("mountain", low, _times(pen, short), -1, "penalty"))


def _charge_own(
    out: list[Entry], rules: Rules, v: int, quota: int, d1: int, t1: int, d2: int, t2: int
) -> None:
    """``whister_quota="own"``: each whister answers for his own share whatever his partner
    took — half the quota each on 6 and 7; on 8–10 the second whister for the one trick."""
    pen = rules.pen_mult * v
    own = (quota // 2, quota // 2) if quota > 1 else (0, 1)
    for d, t, q in ((d1, t1, own[0]), (d2, t2, own[1])):
        if t < q:
            out.append(Entry("mountain", d, _times(pen, q - t), -1, "penalty"))


def score_misere(result: DealResult, rules: Rules, coeff: int = 1) -> list[Entry]:
    """Misère: 10 in the pool if clean, else per trick into the mountain (rules.md §7, §9.1)."""
    decl = result.declarer
    assert decl is not None
    t = result.tricks.get(decl, 0)
    if t == 0:
        col, amount, why = "pool", rules.misere_pool * coeff, "misere"
    else:
        col, amount, why = "mountain", rules.misere_trick * coeff * t, "misere"
    if result.misere_half:  # «пополам» with the dealer (Kodeks 3.6.9)
        half = _part(amount, 1, 2)
        return [Entry(col, decl, half, -1, why), Entry(col, result.dealer, half, -1, why)]
    return [Entry(col, decl, amount, -1, why)]
