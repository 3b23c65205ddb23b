"""Writing an all-pass deal (распасовка) on the sheet (rules.md §8.3, Kodeks 3.7.2–3.7.4).

Two ways, chosen by ``rules.raspas_scoring``:

* ``mountain`` (Sochi, Leningrad, Classic; Kodeks 3.7.2.1): every trick costs
  the current price in the taker's mountain; a player with no tricks writes
  the price of one trick into his pool.  Amnesty (3.7.3) subtracts the
  smallest record from everybody's, dealer included — cosmetic, the
  settlement does not change.
* ``whists`` (Rostov; Kodeks 3.7.2.2): the player with fewer tricks than
  everybody writes whists (5 per trick) on each partner for that partner's
  tricks; two sharing the minimum write on the third half each; a player
  with no tricks writes 1 into his pool.
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.result import DealResult
from ..rules import Rules
from .sheet import Amount, Entry

__all__ = ["score_all_pass", "zero_bonus"]


def zero_bonus(rules: Rules, price: int) -> int:
    """Pool points for taking no trick (Kodeks 3.7.2.1: the price; 3.7.2.2: one)."""
    mode = rules.raspas_zero_bonus
    if mode == "price":
        return price
    return 1 if mode == "one" else 0


def score_all_pass(result: DealResult, rules: Rules, step: int = 1) -> list[Entry]:
    """Sheet lines of an all-pass; ``step`` is its place in the series (1 = first)."""
    if rules.raspas_scoring == "whists":
        return _on_whists(result, rules, step)
    price = rules.raspas_price_at(step) * result.multiplier  # Kodeks 3.7.4; dark pass ×2 (3.3.19)
    tricks = result.tricks
    dealer = result.dealer
    four = result.players == 4
    seats = range(result.players)
    record = [result.dealer_tricks if (four and s == dealer) else tricks.get(s, 0) for s in seats]
    amnesty = min(record) if rules.amnesty else 0  # Kodeks 3.7.3, dealer's talon tricks included
    bonus = zero_bonus(rules, price)
    out: list[Entry] = []
    for s in seats:
        t = record[s]
        if t > amnesty:
            out.append(Entry("mountain", s, price * (t - amnesty), -1, "all-pass"))
        # The bonus is for an actual zero, not a zero after amnesty (rules.md §8.3 (common practice)).
        if t == 0 and bonus and (not four or s != dealer or rules.dealer_zero_bonus):
            out.append(Entry("pool", s, bonus, -1, "bonus"))
    return out


def _on_whists(result: DealResult, rules: Rules, step: int) -> list[Entry]:
    factor = rules.raspas_price_at(step) // rules.raspas_price * result.multiplier
    w = rules.raspas_whists_per_trick * factor
    # The players who played: in гусарик the two, the dummy takes no part (Kodeks 3.7.6.4).
    active = (0, 1) if result.players == 2 else result.active
    tricks = result.tricks
    low = min(tricks.get(s, 0) for s in active)
    lows = [s for s in active if tricks.get(s, 0) == low]
    out: list[Entry] = []
    if len(lows) == len(active):
        pass  # 5–5 between two players: nobody took fewer, nothing is written
    elif len(lows) == 1:
        taker = lows[0]
        for s in active:
            t = tricks.get(s, 0)
            if s != taker and t:
                out.append(Entry("whists", taker, w * t, s, "all-pass"))
    else:  # two share the minimum: they write on the third half each (3.7.2.2)
        third = next(s for s in active if s not in lows)
        amount = w * tricks.get(third, 0)
        half: Amount = amount // 2 if amount % 2 == 0 else Fraction(amount, 2)
        for s in lows:
            out.append(Entry("whists", s, half, third, "all-pass"))
    bonus = zero_bonus(rules, 1)
    if bonus:
        for s in active:
            if tricks.get(s, 0) == 0:
                out.append(Entry("pool", s, bonus, -1, "bonus"))
        if result.players == 4 and rules.dealer_zero_bonus:  # Kodeks 3.7.6.2
            out.append(Entry("pool", result.dealer, bonus, -1, "bonus"))
    return out
