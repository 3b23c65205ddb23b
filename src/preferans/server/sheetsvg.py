"""The table's score sheet as the paper pulka (:meth:`preferans.scoring.pulka.Pulka.svg`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import LANGS
from ..scoring.pulka import Pulka

if TYPE_CHECKING:
    from .game import TableGame

__all__ = ["sheet_svg"]


def sheet_svg(game: TableGame, lang: str = "en") -> str:
    """The pulka of ``game`` (an empty sheet before the first deal), its words in ``lang``
    (English for a language the project does not speak)."""
    pulka = game.pulka if game.pulka is not None else Pulka(game.rules, game.pulka_names())
    return pulka.svg(lang if lang in LANGS else "en")
