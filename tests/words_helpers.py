"""Is a Russian screen wholly Russian?  The English words players could read, from the catalog itself.

Every word of three or more letters in an English message id of ``en.po`` (and the English names of
calls, levels and phases) is a word that must not appear on a page or a terminal playing in Russian;
a few are allowed because Russian text uses them too (``seed 002`` in a citation, a command line).
"""

from __future__ import annotations

import re

from preferans.i18n import po_path
from preferans.i18n.po import parse_po

# Words a Russian text may contain: citations (seed 002, rules.md), the command (preferans play …),
# the labels printed on the keys (Enter, Esc, Home, End).
ALLOWED = frozenset({"seed", "rules", "preferans", "play", "resume", "practice", "deals", "svg", "json", "prf",
                     "enter", "esc", "home", "end"})  # fmt: skip


def _catalog_words() -> frozenset[str]:
    words: set[str] = set()
    for e in parse_po(po_path("en").read_text(encoding="utf-8")):
        if not e.msgid:
            continue  # the header
        for s in (e.msgid, e.plural or "", *e.strings.values()):
            s = re.sub(r"\{[^}]*\}", " ", s)  # placeholders are not words
            words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", s))
    return frozenset(words - ALLOWED)


ENGLISH = _catalog_words()


def english_words(text: str) -> set[str]:
    """The English player-facing words in ``text`` (command lines and option names left out)."""
    text = re.sub(r"preferans \w+(?: --?[\w-]+(?: \S+)?)*", " ", text)
    text = re.sub(r"--[\w-]+|\b\w*_\w*\b|\w+=\S+|rules\.md|https?://\S+", " ", text)
    return {w for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() in ENGLISH}
