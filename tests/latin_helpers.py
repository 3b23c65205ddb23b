"""Is a Russian screen wholly Russian?  Every Latin word on it that is not a card or a player's own name.

The stricter sibling of ``words_helpers.english_words`` (which knows only the catalog's English
words): here *any* run of two or more Latin letters is a finding — an option's field name
(``k_pool``), a citation (``rules.md``), a command-line flag (``--deals``), a format (``NT3.0``,
``JSON``) — except what a Russian player reads in Latin anyway:

* the players' own names (given to :func:`latin_words`), as the table writes them;
* cards: a rank with its suit (``A♠``, ``10♥``) and a hand grouped by suit (``♠A K 10``) — with the
  Russian rank letters (Т К Д В) there are none, but the setting may be A K Q J;
* the labels printed on the keys (``Enter``, ``Esc``, ``Home``, ``End``) and single letters (a key
  to press: ``s``, ``q``);
* the one command a player types to go on with a saved game (``preferans play --resume FILE``), and
  the paths of his own files (``/home/anna/.preferans/last-game.prf``).

Used by the terminal tests (tests/terminal/test_russian.py) and the browser tests
(tests/server/test_web_russian.py); docs/i18n.md describes the check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

KEY_LABELS = frozenset({"Enter", "Esc", "Home", "End"})
_CARD = re.compile(r"(?:10|[7-9AKQJ])[♠♣♦♥]")
_SUIT_GROUP = re.compile(r"[♠♣♦♥](?:10|[7-9AKQJ])(?![\w♠♣♦♥])(?: (?:10|[7-9AKQJ])(?![\w♠♣♦♥]))*")
_RESUME = re.compile(r"preferans play --resume \S+")
_PATH = re.compile(r"(?<![\w.])(?:~|\.{0,2})/[\w./~-]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.=§'-]*[A-Za-z0-9_]|[A-Za-z]")


def latin_words(text: str, names: Iterable[str] = (), *, ranks: str = "en") -> list[str]:
    """The Latin words in ``text`` a Russian player would read (see the module's list of what is not).

    With ``ranks="ru"`` (the player reads cards as Т К Д В) a card written with a Latin picture
    rank (``K♠``, ``♠A K``) is a finding too."""
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, " ")
    text = _PATH.sub(" ", _RESUME.sub(" ", text))
    found = []
    if ranks == "ru":
        found += [m.group(0) for m in _SUIT_GROUP.finditer(text) if re.search(r"[AKQJ]", m.group(0))]
        found += [m.group(0) for m in _CARD.finditer(text) if m.group(0)[0] in "AKQJ"]
    text = _SUIT_GROUP.sub(" ", text)
    text = _CARD.sub(" ", text)
    for m in _WORD.finditer(text):
        word = m.group(0)
        letters = re.sub(r"[^A-Za-z]", "", word)
        if len(letters) >= 2 and word not in KEY_LABELS:
            found.append(word)
    return found


def assert_russian(text: str, names: Iterable[str] = (), where: str = "", *, ranks: str = "ru") -> None:
    """Fail naming each Latin word of ``text`` with the line it stands in (cards in the Russian
    rank letters unless ``ranks="en"``)."""
    bad = []
    for line in text.splitlines():
        words = latin_words(line, names, ranks=ranks)
        if words:
            bad.append(f"{words}: {line.strip()[:160]}")
    assert not bad, (where + ": " if where else "") + "Latin words on a Russian screen:\n" + "\n".join(bad[:40])
