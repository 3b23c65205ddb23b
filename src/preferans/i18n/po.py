"""The ``.po`` format: reading a catalog, writing it back, compiling it to gettext's ``.mo``.

Standard library only; :mod:`preferans.i18n` compiles its catalogs in memory
with :func:`compile_mo` and hands them to :class:`gettext.GNUTranslations`.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable

from ..errors import PreferansError

__all__ = ["PoEntry", "compile_mo", "parse_po", "write_po"]


class PoEntry:
    """One entry of a ``.po`` file: context, id, plural id, translations, comments."""

    __slots__ = ("comments", "context", "flags", "line", "msgid", "plural", "strings")

    def __init__(self, line: int) -> None:
        self.line = line
        self.context: str | None = None
        self.msgid = ""
        self.plural: str | None = None
        self.strings: dict[int, str] = {}
        self.comments: list[str] = []
        self.flags: set[str] = set()

    @property
    def key(self) -> str:
        """The entry's key in a compiled catalog: ``context\\x04msgid``."""
        return self.msgid if self.context is None else f"{self.context}\x04{self.msgid}"

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and bool(self.strings) and all(self.strings.values())


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(s: str, where: str) -> str:
    s = s.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        raise PreferansError(f"{where}: expected a quoted string, got {s!r}")
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), s[1:-1])


def parse_po(source: str, name: str = "catalog") -> list[PoEntry]:
    """The entries of a ``.po`` file (the header is the entry with the empty id).

    >>> [(e.msgid, e.strings) for e in parse_po('msgid "a"\\nmsgstr "b"\\n\\nmsgid "x"\\nmsgstr ""\\n')]
    [('a', {0: 'b'}), ('x', {0: ''})]
    """
    entries: list[PoEntry] = []
    cur: PoEntry | None = None
    field: tuple[str, int] | None = None
    for no, raw in enumerate(source.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{no}"
        if not line:
            cur, field = None, None  # a blank line ends an entry
            continue
        if line.startswith("#"):
            if cur is None or field is not None:
                cur, field = PoEntry(no), None
                entries.append(cur)
            if line.startswith("#,"):
                cur.flags.update(f.strip() for f in line[2:].split(","))
            else:
                cur.comments.append(line)
            continue
        if line.startswith('"'):
            if cur is None or field is None:
                raise PreferansError(f"{where}: a continued string outside an entry")
            value = _unquote(line, where)
            kind, index = field
            if kind == "msgctxt":
                cur.context = (cur.context or "") + value
            elif kind == "msgid":
                cur.msgid += value
            elif kind == "msgid_plural":
                cur.plural = (cur.plural or "") + value
            else:
                cur.strings[index] += value
            continue
        keyword, _, rest = line.partition(" ")
        m = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if keyword in ("msgctxt", "msgid") and (cur is None or cur.strings or (keyword == "msgctxt" and cur.msgid)):
            cur = PoEntry(no)
            entries.append(cur)
        if cur is None:
            raise PreferansError(f"{where}: {keyword} before msgid")
        value = _unquote(rest, where)
        if keyword == "msgctxt":
            cur.context, field = value, ("msgctxt", 0)
        elif keyword == "msgid":
            cur.msgid, field = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            cur.plural, field = value, ("msgid_plural", 0)
        elif keyword == "msgstr" or m:
            index = int(m.group(1)) if m else 0
            cur.strings[index] = value
            field = ("msgstr", index)
        else:
            raise PreferansError(f"{where}: unknown keyword {keyword!r}")
    return [e for e in entries if e.strings or e.msgid]


def compile_mo(entries: Iterable[PoEntry]) -> bytes:
    """The entries in gettext's binary ``.mo`` form (untranslated and fuzzy ones left out,
    so gettext falls back to the English id)."""
    entries = list(entries)
    pairs: dict[bytes, bytes] = {}
    header = next((e for e in entries if e.msgid == "" and e.context is None), None)
    if header is None or "charset=" not in header.strings.get(0, ""):
        # gettext reads a catalog without a charset as ASCII; ours are UTF-8
        known = header.strings.get(0, "") if header else ""
        pairs[b""] = known.encode() + b"Content-Type: text/plain; charset=UTF-8\n"
    for e in entries:
        if not (e.translated or e.msgid == "") or (e.msgid == "" and b"" in pairs):
            continue
        key = e.key if e.plural is None else f"{e.key}\x00{e.plural}"
        value = "\x00".join(e.strings[i] for i in sorted(e.strings))
        pairs[key.encode()] = value.encode()
    keys = sorted(pairs)
    n = len(keys)
    originals = 7 * 4
    translations = originals + 8 * n
    data = translations + 8 * n
    table_o, table_t, blob = [], [], bytearray()
    for k in keys:
        table_o.append((len(k), data + len(blob)))
        blob += k + b"\0"
    for k in keys:
        v = pairs[k]
        table_t.append((len(v), data + len(blob)))
        blob += v + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, n, originals, translations, 0, 0)
    out += b"".join(struct.pack("<2I", *p) for p in table_o)
    out += b"".join(struct.pack("<2I", *p) for p in table_t)
    return out + bytes(blob)


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'


def _field(keyword: str, value: str) -> list[str]:
    """``msgid "text"``; a text with line breaks is split after each as GNU tools write it."""
    if "\n" not in value.rstrip("\n"):
        return [f"{keyword} {_quote(value)}"]
    parts = value.splitlines(keepends=True)
    return [f'{keyword} ""', *(_quote(p) for p in parts)]


def write_po(entries: Iterable[PoEntry]) -> str:
    """The entries as ``.po`` text (comments, flags, context, ids, translations).

    >>> e = parse_po('#. a note\\nmsgctxt "c"\\nmsgid "a"\\nmsgstr "b"\\n')
    >>> print(write_po(e), end="")
    #. a note
    msgctxt "c"
    msgid "a"
    msgstr "b"
    """
    out: list[str] = []
    for e in entries:
        if out:
            out.append("")
        out.extend(e.comments)
        if e.flags:
            out.append("#, " + ", ".join(sorted(e.flags)))
        if e.context is not None:
            out.extend(_field("msgctxt", e.context))
        out.extend(_field("msgid", e.msgid))
        if e.plural is None:
            out.extend(_field("msgstr", e.strings.get(0, "")))
        else:
            out.extend(_field("msgid_plural", e.plural))
            for i in sorted(e.strings) or [0, 1]:
                out.extend(_field(f"msgstr[{i}]", e.strings.get(i, "")))
    return "\n".join(out) + "\n"
