"""preferans — the Russian card game Preferans (преферанс) for players, score keepers and analysts."""

from .cards import Card, Rank, Suit, cards_of, format_hand, mask_of, parse_cards, parse_hand
from .errors import ActionError, CardError, IllegalAction, PreferansError, RulesError
from .rules import PRESETS, Rules

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "ActionError",
    "Card",
    "CardError",
    "IllegalAction",
    "PreferansError",
    "Rank",
    "Rules",
    "RulesError",
    "Suit",
    "cards_of",
    "format_hand",
    "mask_of",
    "parse_cards",
    "parse_hand",
]
