"""Scoring: the sheet (пулька), writing a deal on it, and the settlement (rules.md §8.3–§11).

* :mod:`.sheet` — :class:`Sheet`, :class:`Entry`, :class:`DealScore`;
* :mod:`.score` — :func:`score_deal`, the per-deal algorithm of rules.md §9.2;
* :mod:`.game` — trick games and misère; :mod:`.allpass` — all-pass;
* :mod:`.settlement` — both settlement methods of rules.md §11, rounding, money.

The whole game (dealer rotation, all-pass series, closing and help) is
:class:`preferans.scoring.pulka.Pulka`.
"""

from .allpass import score_all_pass
from .contract_deal import QUOTA, score_game, score_misere
from .score import check_result, deal_label, deal_net, score_deal
from .settlement import (
    Procedure,
    Settlement,
    closed_formula,
    entries_net,
    procedural,
    round_nets,
    settle,
)
from .sheet import COLUMNS, Amount, DealScore, Entry, Sheet, amount_text

__all__ = [
    "COLUMNS",
    "QUOTA",
    "Amount",
    "DealScore",
    "Entry",
    "Procedure",
    "Settlement",
    "Sheet",
    "amount_text",
    "check_result",
    "closed_formula",
    "deal_label",
    "deal_net",
    "entries_net",
    "procedural",
    "round_nets",
    "score_all_pass",
    "score_deal",
    "score_game",
    "score_misere",
    "settle",
]
