"""preferans — the Russian card game Preferans (преферанс) for players, score keepers and analysts."""

from .actions import NUM_ACTIONS, Action, Contract
from .cards import Card, Rank, Suit, cards_of, format_hand, mask_of, parse_cards, parse_hand
from .engine import Deal, DealKind, DealResult, DefenceCall, Observation, Phase, Standing
from .errors import (
    ActionError,
    CardError,
    ConfigError,
    IllegalAction,
    PreferansError,
    RulesError,
    ScoreError,
    UndoError,
)
from .rules import PRESETS, Rules

__version__ = "0.1.0"

__all__ = [
    "NUM_ACTIONS",
    "PRESETS",
    "Action",
    "ActionError",
    "Card",
    "CardError",
    "ConfigError",
    "Contract",
    "Deal",
    "DealKind",
    "DealResult",
    "DefenceCall",
    "IllegalAction",
    "Observation",
    "Phase",
    "PreferansError",
    "Rank",
    "Rules",
    "RulesError",
    "ScoreError",
    "Standing",
    "Suit",
    "UndoError",
    "cards_of",
    "format_hand",
    "mask_of",
    "parse_cards",
    "parse_hand",
]
