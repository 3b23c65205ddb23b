"""Keep the catalogs complete: find every translatable text in the sources and compare.

``python -m preferans.i18n.extract`` lists what is wrong (a text used in the
code but missing from ``en.po``/``ru.po``, a Russian entry left empty or with
other ``{placeholders}`` than its English id, an entry nothing uses any more)
and exits 1 if anything is; ``--update`` first adds the missing entries (empty,
to be translated) and drops the unused ones.  The test suite runs the check.

What counts as a translatable text (gettext's keywords, adapted):

* Python — a string literal as the first argument of ``t(…)``, ``_(…)``,
  ``tr(…)``, ``N_(…)`` or ``Msg(…)`` (with ``Msg``'s second literal as the plural
  and its ``context=``), of ``t.n(singular, plural, …)``, ``t.p(context, msgid)``
  and ``t.np(context, singular, plural, …)`` — whatever object ``t`` is
  reached through (``self.t.n``);
* JavaScript — ``t("…")``, ``tn("…", "…", …)``, ``tp("…", "…")``;
* HTML — the text of an element with a ``data-i18n`` attribute.

Entries looked up with a computed id (the names of calls, levels, phases)
carry the extracted comment ``#. dynamic`` and are never reported unused.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import HERE, LANGS, po_path
from .po import PoEntry, parse_po, write_po

__all__ = ["Found", "check", "find_all", "update"]

PACKAGE = HERE.parent
CALLERS = frozenset({"t", "_", "tr", "N_", "Msg"})
_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_0-9]*)(?:[:!][^}]*)?\}(?!\})")


@dataclass(frozen=True)
class Found:
    """A translatable text found at ``where`` (``path:line``)."""

    context: str | None
    msgid: str
    plural: str | None
    where: str

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _from_python(path: Path, rel: str) -> Iterator[Found]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        args = [_literal(a) for a in node.args]
        func = node.func
        where = f"{rel}:{node.lineno}"
        name = _name(func)
        if name in CALLERS and args[0] is not None:
            plural = args[1] if name == "Msg" and len(args) > 1 else None
            context = next((_literal(k.value) for k in node.keywords if k.arg == "context"), None)
            yield Found(context if name == "Msg" else None, args[0], plural, where)
        elif isinstance(func, ast.Attribute) and _name(func.value) in CALLERS - {"N_", "Msg"}:
            if func.attr == "n" and len(args) >= 2 and args[0] is not None and args[1] is not None:
                yield Found(None, args[0], args[1], where)
            elif func.attr == "p" and len(args) >= 2 and args[0] is not None and args[1] is not None:
                yield Found(args[0], args[1], None, where)
            elif func.attr == "np" and len(args) >= 3 and args[0] and args[1] and args[2]:
                yield Found(args[0], args[1], args[2], where)


_JS_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_JS = [
    (re.compile(r"\btn\(\s*" + _JS_STRING + r"\s*,\s*" + _JS_STRING), "n"),
    (re.compile(r"\btp\(\s*" + _JS_STRING + r"\s*,\s*" + _JS_STRING), "p"),
    (re.compile(r"(?<![\w.])t\(\s*" + _JS_STRING), ""),
]
_HTML = re.compile(r"<(\w+)[^>]*\bdata-i18n\b[^>]*>([^<]+)</\1>")


def _js_unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def _from_js(path: Path, rel: str) -> Iterator[Found]:
    source = path.read_text(encoding="utf-8")
    for pattern, kind in _JS:
        for m in pattern.finditer(source):
            line = source.count("\n", 0, m.start()) + 1
            a, b = (_js_unescape(g) for g in (m.group(1), m.group(2) if pattern.groups > 1 else ""))
            if kind == "n":
                yield Found(None, a, b, f"{rel}:{line}")
            elif kind == "p":
                yield Found(a, b, None, f"{rel}:{line}")
            else:
                yield Found(None, a, None, f"{rel}:{line}")


def _from_html(path: Path, rel: str) -> Iterator[Found]:
    source = path.read_text(encoding="utf-8")
    for m in _HTML.finditer(source):
        yield Found(None, " ".join(m.group(2).split()), None, f"{rel}:{source.count(chr(10), 0, m.start()) + 1}")


def find_all(package: Path = PACKAGE) -> list[Found]:
    """Every translatable text in the package's Python, JavaScript and HTML, in file order."""
    out: list[Found] = []
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(package.parent).as_posix()
        if path.suffix == ".py" and "i18n" not in path.parts:
            out.extend(_from_python(path, rel))
        elif path.suffix == ".js":
            out.extend(_from_js(path, rel))
        elif path.suffix == ".html":
            out.extend(_from_html(path, rel))
    return out


def _is_dynamic(e: PoEntry) -> bool:
    return any(c.startswith("#. dynamic") for c in e.comments)


def _placeholders(s: str) -> set[str]:
    return set(_PLACEHOLDER.findall(s))


def check(package: Path = PACKAGE) -> list[str]:
    """What is wrong with the catalogs, one line each (empty when all is well)."""
    found = find_all(package)
    problems: list[str] = []
    used = {f.key: f for f in reversed(found)}
    for lang in LANGS:
        entries = [e for e in parse_po(po_path(lang).read_text(encoding="utf-8"), f"{lang}.po") if e.msgid]
        by_key = {(e.context, e.msgid): e for e in entries}
        for key, f in used.items():
            e = by_key.get(key)
            if e is None:
                problems.append(f"{lang}.po: missing {_show(key)} (used at {f.where})")
            elif (e.plural is None) != (f.plural is None) or (f.plural and e.plural != f.plural):
                problems.append(f"{lang}.po:{e.line}: {_show(key)} plural differs from {f.where}")
        for e in entries:
            key = (e.context, e.msgid)
            if key not in used and not _is_dynamic(e):
                problems.append(f"{lang}.po:{e.line}: {_show(key)} is used nowhere (run --update to drop it)")
            if lang == "ru" and not e.translated:
                problems.append(f"ru.po:{e.line}: {_show(key)} has no translation")
            want = _placeholders(e.msgid) | _placeholders(e.plural or "")
            for i, s in e.strings.items():
                if s and _placeholders(s) - want:
                    problems.append(f"{lang}.po:{e.line}: {_show(key)} form {i} names {_placeholders(s) - want}")
                if s and e.plural is None and _placeholders(s) != want:
                    problems.append(f"{lang}.po:{e.line}: {_show(key)} has {_placeholders(s)}, the id {want}")
    return problems


def _show(key: tuple[str | None, str]) -> str:
    context, msgid = key
    return (f"[{context}] " if context else "") + repr(msgid)


def update(package: Path = PACKAGE) -> list[str]:
    """Add the missing entries to both catalogs and drop the unused ones; returns what changed."""
    found = find_all(package)
    order: dict[tuple[str | None, str], Found] = {}
    for f in found:
        order.setdefault(f.key, f)
    changes: list[str] = []
    for lang in LANGS:
        path = po_path(lang)
        entries = parse_po(path.read_text(encoding="utf-8"), path.name)
        header = [e for e in entries if not e.msgid]
        by_key = {(e.context, e.msgid): e for e in entries if e.msgid}
        kept: list[PoEntry] = []
        for key, f in order.items():
            e = by_key.pop(key, None)
            if e is None:
                e = PoEntry(0)
                e.context, e.msgid, e.plural = f.context, f.msgid, f.plural
                e.strings = {0: ""} if f.plural is None else {i: "" for i in range(2 if lang == "en" else 3)}
                changes.append(f"{lang}.po: added {_show(key)}")
            e.comments = [c for c in e.comments if not c.startswith("#:")] + [f"#: {f.where.split(':')[0]}"]
            kept.append(e)
        for key, e in by_key.items():
            if _is_dynamic(e):
                kept.append(e)
            else:
                changes.append(f"{lang}.po: dropped {_show(key)}")
        path.write_text(write_po(header + kept), encoding="utf-8")
    return changes


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--update" in args:
        for line in update():
            print(line)
    problems = check()
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
