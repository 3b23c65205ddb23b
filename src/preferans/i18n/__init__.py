"""Words players read, in English and Russian: gettext message catalogs with plural forms.

Every text a player reads — prompts, results, the sheet, the engine's reasons
for refusing a move, the web page — comes from the catalogs ``en.po`` and
``ru.po`` beside this module, in the standard gettext format.  They are
compiled in memory on first use into gettext's binary form and read by the
standard library (:class:`gettext.GNUTranslations`), so plural forms follow
each catalog's ``Plural-Forms`` header and no build step is needed.  The web
client reads the same catalog as JSON (:func:`catalog_json`) and evaluates the
same plural expression.  A message id is the English text itself (gettext's
custom), with a context where one English word has two meanings.

The API for new words (see docs/i18n.md):

* :class:`Translator` — the words of one language: ``t(msgid, **args)``,
  ``t.n(singular, plural, n, **args)``, ``t.p(context, msgid, **args)``,
  ``t.np(context, singular, plural, n, **args)``; ``t.text(value)`` renders a
  deferred message, a call, an error or anything else.
* :class:`Msg` — a message for code that does not know who reads it (the
  engine's reasons, the sheet's labels): a ``str`` holding the English text,
  translated later with :func:`text` / ``Translator.text``.
* :func:`call_name` — an action's name as the player reads it (``пас``, ``7БК``).
* :func:`N_` marks a literal for the catalog when it is translated elsewhere.

>>> t = Translator("ru")
>>> t("Your hand")
'Ваши карты'
>>> [t.n("{n} deal", "{n} deals", n) for n in (1, 2, 5, 11, 21)]
['1 сдача', '2 сдачи', '5 сдач', '11 сдач', '21 сдача']
>>> t.p("sheet", "pool"), Translator("en").p("sheet", "pool")
('пуля', 'pool')
>>> m = Msg("{name} takes the trick", name="Anna")
>>> m, text(m, "ru")
('Anna takes the trick', 'Anna берёт взятку')
>>> call_name("7NT", "ru"), call_name("dark 6♠", "ru"), call_name("misere", "en")
('7БК', '6♠ втёмную', 'misère')
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import PreferansError
from .po import PoEntry, compile_mo, parse_po

__all__ = [
    "LANGS",
    "N_",
    "Call",
    "Joined",
    "Msg",
    "Translator",
    "call_name",
    "catalog_json",
    "check_lang",
    "preset_name",
    "system_language",
    "text",
]  # fmt: skip

LANGS = ("en", "ru")
HERE = Path(__file__).parent


def check_lang(lang: str) -> str:
    """``lang`` if the project speaks it, else a :class:`PreferansError` naming the choices."""
    if lang not in LANGS:
        raise PreferansError(f"lang: choose {' or '.join(LANGS)}, not {lang!r}")
    return lang


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the user's system as gettext reads it (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, the first one set): ``ru`` for a Russian locale, else ``en``.
    A command's ``--lang`` left out means this.

    >>> system_language({"LANG": "ru_RU.UTF-8"}), system_language({"LC_ALL": "C.UTF-8", "LANG": "ru_RU"})
    ('ru', 'en')
    >>> system_language({})
    'en'
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            return "ru" if env[var].split(":")[0].lower().startswith("ru") else "en"
    return "en"


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalog without translating it here (gettext's ``N_``)."""
    return msgid


# -- the catalogs -------------------------------------------------------------------------------


def po_path(lang: str) -> Path:
    return HERE / f"{check_lang(lang)}.po"


@cache
def _entries(lang: str) -> tuple[PoEntry, ...]:
    path = po_path(lang)
    return tuple(parse_po(path.read_text(encoding="utf-8"), path.name))


@cache
def _gnu(lang: str) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compile_mo(_entries(lang))))


def plural_forms(lang: str) -> tuple[int, str]:
    """``(nplurals, expression)`` from the catalog's header, e.g. ``(2, "(n != 1)")``."""
    header = next(e for e in _entries(lang) if e.msgid == "").strings[0]
    m = re.search(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?", header)
    if m is None:
        raise PreferansError(f"{lang}.po: the header has no Plural-Forms")
    return int(m.group(1)), m.group(2).strip()


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog for the web client: ``{"lang", "nplurals", "plural", "messages"}``.

    ``messages`` maps a key (``msgid``, or ``context\\u0004msgid``) to its text, or
    to the list of plural forms; untranslated entries are left out (the client
    falls back to the English id, as gettext does).  ``plural`` is the C
    expression of the ``Plural-Forms`` header, valid JavaScript as it stands.

    >>> c = catalog_json("ru")
    >>> c["nplurals"], c["messages"]["{n} deal"]
    (3, ['{n} сдача', '{n} сдачи', '{n} сдач'])
    """
    messages: dict[str, str | list[str]] = {}
    for e in _entries(lang):
        if not e.msgid or not e.translated:
            continue
        if e.plural is None:
            messages[e.key] = e.strings[0]
        else:
            messages[e.key] = [e.strings[i] for i in sorted(e.strings)]
    nplurals, plural = plural_forms(lang)
    return {"lang": lang, "nplurals": nplurals, "plural": plural, "messages": messages}


# -- translating --------------------------------------------------------------------------------


class Translator:
    """The words of one language.

    Calls format their arguments with :meth:`str.format` after translating the
    id; an argument that is itself a deferred message (:class:`Msg`,
    :class:`Call`) is rendered in the same language first.
    """

    __slots__ = ("_g", "lang")

    def __init__(self, lang: str = "en") -> None:
        self.lang = check_lang(lang)
        self._g = _gnu(lang)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def __call__(self, msgid: str, /, **args: object) -> str:
        return self._format(self._g.gettext(msgid), args)

    def n(self, singular: str, plural: str, n: int, /, **args: object) -> str:
        """The form for ``n`` (``n`` is also an argument of the text)."""
        return self._format(self._g.ngettext(singular, plural, n), {"n": n, **args})

    def p(self, context: str, msgid: str, /, **args: object) -> str:
        """``msgid`` in a context (``p("sheet", "pool")``: the column, not the bank)."""
        return self._format(self._g.pgettext(context, msgid), args)

    def np(self, context: str, singular: str, plural: str, n: int, /, **args: object) -> str:
        return self._format(self._g.npgettext(context, singular, plural, n), {"n": n, **args})

    def text(self, value: object) -> str:
        """Anything a player reads, in this language: a :class:`Msg`, a :class:`Call`, an
        error carrying one, or any other value as ``str()`` gives it."""
        render = getattr(value, "tr", None)
        if callable(render):
            return str(render(self.lang))
        if isinstance(value, BaseException) and value.args and callable(getattr(value.args[0], "tr", None)):
            return str(value.args[0].tr(self.lang))
        return str(value)

    def _format(self, template: str, args: Mapping[str, object]) -> str:
        if not args:
            return template
        shown = {k: self.text(v) if callable(getattr(v, "tr", None)) else v for k, v in args.items()}
        return template.format(**shown)


def text(value: object, lang: str = "en") -> str:
    """``value`` as a player of ``lang`` reads it (see :meth:`Translator.text`)."""
    return Translator(lang).text(value)


class Msg(str):
    """A message whose language is chosen later: a ``str`` holding its English text.

    Code that does not know who will read it (the engine explaining an illegal
    move, the sheet labelling a deal) returns or raises a ``Msg``; ``str()`` of
    it, or of the error carrying it, is English as before, and a front end shows
    ``text(msg, lang)``.  Arguments may be messages too.

    >>> m = Msg("{n} deal", "{n} deals", n=2)
    >>> m, m.tr("ru")
    ('2 deals', '2 сдачи')
    >>> Msg("{who} plays {c}", who=Msg("You"), c=Call("7NT")).tr("ru")
    'Вы plays 7БК'
    """

    msgid: str
    plural: str | None
    context: str | None
    n: int | None
    args: dict[str, object]

    def __new__(
        cls, msgid: str, plural: str | None = None, /, *, n: int | None = None, context: str | None = None,
        **args: object,
    ) -> Msg:  # fmt: skip
        if plural is not None and n is None:
            raise PreferansError(f"Msg({msgid!r}): a plural message needs n")
        self = str.__new__(cls, _render(msgid, plural, n, context, args, Translator("en")))
        self.msgid, self.plural, self.n, self.context, self.args = msgid, plural, n, context, args
        return self

    def tr(self, lang: str) -> str:
        """The message in ``lang``."""
        return _render(self.msgid, self.plural, self.n, self.context, self.args, Translator(lang))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.msgid, self.plural, self.n, self.context, self.args))


def _rebuild(msgid: str, plural: str | None, n: int | None, context: str | None, args: dict[str, object]) -> Msg:
    return Msg(msgid, plural, n=n, context=context, **args)


def _render(
    msgid: str, plural: str | None, n: int | None, context: str | None, args: Mapping[str, object], t: Translator
) -> str:
    if plural is not None:
        assert n is not None
        if context is None:
            return t.n(msgid, plural, n, **args)
        return t.np(context, msgid, plural, n, **args)
    if context is None:
        return t(msgid, **args)
    return t.p(context, msgid, **args)


class Joined(str):
    """Several values read as one list (``"pass, 6♠, 7NT"``), each in the reader's language.

    >>> Joined([Call("pass"), Call("7NT")]).tr("ru")
    'пас, 7БК'
    """

    items: tuple[object, ...]
    sep: str

    def __new__(cls, items: Iterable[object], sep: str = ", ") -> Joined:
        kept = tuple(items)
        self = str.__new__(cls, sep.join(text(i, "en") for i in kept))
        self.items, self.sep = kept, sep
        return self

    def tr(self, lang: str) -> str:
        return self.sep.join(text(i, lang) for i in self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.items, self.sep))


def preset_name(name: str, lang: str = "en") -> str:
    """A rules preset's name as players say it (``sochi`` → Sochi, Сочи); another name stays as it is.

    >>> preset_name("leningrad", "ru"), preset_name("my club", "ru")
    ('Ленинград', 'my club')
    """
    return Translator(lang).p("preset", name)


# -- the names of actions -------------------------------------------------------------------------

_BID = re.compile(r"(\d+)(NT|♠|♣|♦|♥)")


class Call(str):
    """An action's name (``str(action)``: ``pass``, ``7NT``, ``dark 6♠``, ``A♥``) that renders
    in the reader's language (:func:`call_name`)."""

    def tr(self, lang: str) -> str:
        return call_name(str(self), lang)


def call_name(name: str, lang: str = "en") -> str:
    """An action's name as a player reads it — and may type it back.

    ``name`` is the action's ``str()``; cards and suit bids stay as they are,
    ``NT`` is ``БК`` in Russian, the calls are the table's words (catalog
    context ``call``).

    >>> [call_name(x, "ru") for x in ("pass", "here", "misere-no-talon", "9-no-talon", "A♥", "dark pass")]
    ['пас', 'здесь', 'мизер без прикупа', '9 без прикупа', 'A♥', 'пас втёмную']
    """
    t = Translator(lang)
    if name.startswith("!out-of-turn "):
        return t.p("call", "out of turn: {call}", call=call_name(name[13:], lang))
    m = re.fullmatch(r"claim (\d+)( proven)?", name)
    if m:
        n = int(m.group(1))
        if m.group(2):
            return t.np("call", "claim of {n} trick (proved)", "claim of {n} tricks (proved)", n)
        return t.np("call", "claim of {n} trick", "claim of {n} tricks", n)
    if name.startswith("dark "):
        return t.p("call", "dark {call}", call=call_name(name[5:], lang))
    m = re.fullmatch(r"(\d+)-no-talon", name)
    if m:
        return t.p("call", "{level} without the talon", level=m.group(1))
    m = _BID.fullmatch(name)
    if m:
        return m.group(1) + (t.p("strain", "NT") if m.group(2) == "NT" else m.group(2))
    if len(name) <= 3 and name[-1:] in "♠♣♦♥":
        return name  # a card
    return t.p("call", name)
