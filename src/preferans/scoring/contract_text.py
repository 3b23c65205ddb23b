"""Reading a contract as players write it on a score line: ``7S``, ``7♠``, ``8NT``, ``misere``.

>>> [str(parse_contract(t)) for t in ("7s", "7♠", "8nt", "10БК", "6 Ч", "мизер")]
['7♠', '7♠', '8NT', '10NT', '6♥', 'misere']
"""

from __future__ import annotations

from ..actions import NO_TRUMP, Contract
from ..cards import SUIT_WORDS
from ..errors import ScoreError

__all__ = ["parse_contract"]

_STRAINS = {**SUIT_WORDS, "nt": NO_TRUMP, "n": NO_TRUMP, "бк": NO_TRUMP, "бп": NO_TRUMP}
_MISERE = {"misere", "misère", "мизер", "m", "mis"}


def parse_contract(text: str) -> Contract:
    """A contract from text; raises :class:`ScoreError` with the accepted forms."""
    key = "".join(text.strip().lower().split())
    if key in _MISERE:
        return Contract(0)
    level = key[:2] if key.startswith("10") else key[:1]
    strain = _STRAINS.get(key[len(level):])
    if level in ("6", "7", "8", "9", "10") and strain is not None:
        return Contract(int(level), strain)
    raise ScoreError(f"contract: cannot read {text!r}; write 6S … 10NT (or 7♠, 8БК) or misere")
