"""The table's score sheet as the paper pulka (:func:`preferans.svg.pulka_svg`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..pulka import Pulka
from ..svg import pulka_svg

if TYPE_CHECKING:
    from .game import TableGame

__all__ = ["sheet_svg"]


def sheet_svg(game: TableGame, lang: str = "en") -> str:
    """The pulka of ``game`` (an empty sheet before the first deal)."""
    pulka = game.pulka if game.pulka is not None else Pulka(game.rules, game.pulka_names())
    return pulka_svg(pulka)
