"""The package tree is the architecture: layers import only downwards, no import
cycles (lazy and type-only imports included), the core needs only the standard
library, and no two modules share a basename."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "preferans"

# Bottom to top (docs/architecture.md).  A module may import its own layer and those below.
LAYERS: list[list[str]] = [
    ["preferans.errors", "preferans.cards", "preferans.i18n"],
    ["preferans.rules", "preferans.option_words"],
    ["preferans.actions", "preferans.seats"],
    ["preferans.engine"],
    ["preferans.scoring", "preferans.solver"],
    ["preferans.record"],
    ["preferans.rulings"],
    ["preferans.bots"],
    ["preferans.table"],
    ["preferans.terminal", "preferans.server", "preferans.env"],
    ["preferans.cli", "preferans.__main__"],
]
CORE = ["preferans", "preferans.cards", "preferans.i18n", "preferans.rules", "preferans.option_words",
        "preferans.actions", "preferans.engine",
        "preferans.scoring", "preferans.record"]  # fmt: skip
ABOVE = ["preferans.solver", "preferans.rulings", "preferans.bots", "preferans.table", "preferans.env",
         "preferans.server", "preferans.terminal", "preferans.cli"]  # fmt: skip


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for f in PACKAGE.rglob("*.py*"):
        if f.suffix not in (".py", ".pyi"):
            continue
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.setdefault(".".join(parts), f)
    return out


MODULES = _modules()


def _imports(module: str, path: Path) -> set[str]:
    """Every ``preferans`` module that ``module`` imports anywhere: at the top, in
    functions (lazily) and under ``TYPE_CHECKING``."""
    package = module if path.stem == "__init__" else module.rsplit(".", 1)[0]
    found: set[str] = set()

    def add(target: str) -> None:
        while target not in MODULES and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in MODULES and target != module:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("preferans"):
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("preferans"):
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    add(sub if sub in MODULES else target)
    return found


GRAPH = {m: _imports(m, p) for m, p in MODULES.items() if p.suffix == ".py"}


def _layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    raise AssertionError(f"{module} is in no layer of LAYERS: add it (and to docs/architecture.md)")


def test_every_module_belongs_to_a_layer() -> None:
    for m in GRAPH:
        if m != "preferans":
            _layer(m)


def test_layers_import_only_downwards() -> None:
    wrong = [
        f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)})"
        for m, targets in GRAPH.items() if m != "preferans"
        for t in targets if t != "preferans" and _layer(t) > _layer(m)
    ]  # fmt: skip
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over every import, lazy ones included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_no_two_modules_share_a_basename() -> None:
    """Outside ``cli/`` (one module per command, named after it) every module name is unique."""
    seen: dict[str, str] = {}
    for m, p in MODULES.items():
        if p.stem in ("__init__", "__main__") or m.startswith("preferans.cli.") or p.suffix != ".py":
            continue
        assert p.stem not in seen, f"{m} and {seen[p.stem]} share the name {p.stem!r}"
        seen[p.stem] = m


@pytest.mark.subprocess
def test_core_needs_only_the_standard_library() -> None:
    code = textwrap.dedent(
        f"""
        import sys, importlib, importlib.abc

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "preferans" or top.startswith("_"):
                    return None
                raise ImportError(f"core imported a non-standard module: {{name}}")

        sys.meta_path.insert(0, Block())
        for m in {CORE!r}:
            importlib.import_module(m)
        for m in {sorted(m for m in MODULES if any(m == c or m.startswith(c + ".") for c in CORE[1:]))!r}:
            importlib.import_module(m)
        above = [m for m in sys.modules if any(m == a or m.startswith(a + ".") for a in {ABOVE!r})]
        assert not above, f"the core imported a layer above it: {{above}}"
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
