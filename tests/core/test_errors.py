"""Errors that say what went wrong, all in one module (issue 13)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import preferans
from preferans import ConfigError, Deal, IllegalAction, PreferansError, Rules, ScoreError, Standing, UndoError, errors

SRC = Path(preferans.__file__).parent


def test_every_exception_class_lives_in_errors() -> None:
    """No module outside ``preferans.errors`` defines a public exception class."""
    found = []
    for path in SRC.rglob("*.py"):
        if path.name == "errors.py" and path.parent == SRC:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):  # private ones stay put
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if any(b.endswith(("Error", "Exception", "Action")) or b in vars(errors) for b in bases):
                    found.append(f"{path.relative_to(SRC)}: {node.name}")
    assert not found, found
    for name, value in vars(errors).items():
        if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == errors.__name__:
            assert issubclass(value, PreferansError), name
    assert preferans.ScoreError is errors.ScoreError is ScoreError


def test_bad_deal_arguments_are_configuration_errors() -> None:
    rules = Rules.preset("sochi")
    four = Standing((0,) * 4, (0,) * 4, ((0,) * 4,) * 4, pool_target=20)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"players": 5}, "players"), ({"dealer": 3}, "dealer"), ({"min_level": 11}, "min_level"),
        ({"standing": four}, "standing"),  # a four-player sheet for a three-player deal
        ({"standing": "pools"}, "standing"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ConfigError, match=f"^{field}:") as info:
            Deal.new(rules, **kwargs)
        assert not isinstance(info.value, IllegalAction)
    with pytest.raises(ConfigError, match="rules: give a Rules value"):
        Deal.new("sochi", seed=1)  # type: ignore[arg-type]


def test_undo_with_nothing_to_undo_has_its_own_error() -> None:
    d = Deal.new(Rules.preset("sochi"), seed=1)
    with pytest.raises(UndoError, match="nothing to undo"):
        d.undo()
    d.apply("pass")
    d.undo()
    with pytest.raises(UndoError):
        d.undo()


def test_a_deal_has_no_dict() -> None:
    # Every class of Deal's hierarchy declares __slots__: a mistyped field raises.
    d = Deal.new(Rules.preset("sochi"), seed=1)
    assert not hasattr(d, "__dict__")
    with pytest.raises(AttributeError):
        d._phsae = 3  # type: ignore[attr-defined]
    for cls in type(d).__mro__[:-1]:
        assert "__slots__" in vars(cls), cls
