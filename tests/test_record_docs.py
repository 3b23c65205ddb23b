"""The examples in the record and analysis docstrings and in docs/record-format.md run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = [
    "preferans.record",
    "preferans.record.model",
    "preferans.record.text",
    "preferans.record.build",
    "preferans.record.jsonform",
    "preferans.analysis",
]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_record_format_doc_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "record-format.md"), module_relative=False)
    assert result.failed == 0 and result.attempted > 0
