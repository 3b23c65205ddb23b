"""The table's score sheet as the paper pulka (:meth:`preferans.scoring.pulka.Pulka.svg`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import LANGS
from ..scoring.pulka import Pulka
from ..scoring.svg_sheet import Layout

if TYPE_CHECKING:
    from .game import TableGame

__all__ = ["sheet_svg"]


def sheet_svg(game: TableGame, lang: str = "en", layout: Layout = "wide") -> str:
    """The pulka of ``game`` (an empty sheet before the first deal), its words in ``lang``
    (English for a language the project does not speak), ``wide`` or for a ``phone``."""
    pulka = game.pulka if game.pulka is not None else Pulka(game.rules, game.pulka_names())
    return pulka.svg(lang if lang in LANGS else "en", layout)
