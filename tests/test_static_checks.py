"""The house rules a reviewer checks by hand, checked in CI too: ``ruff`` and ``mypy --strict``
over the package, the tests and the benchmarks (the configuration is in pyproject.toml)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.subprocess


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)


def _tool_missing(what: str) -> None:
    # CI installs [all] (which holds [dev]): there a missing tool is a broken set-up, not a skip.
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed, though CI installs the [dev] extra")
    pytest.skip(f"{what} is not installed (the [dev] extra)")


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None:
        _tool_missing("ruff")
    done = _run("ruff", "check", "src", "tests", "benchmarks")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    try:
        import mypy  # noqa: F401
    except ImportError:
        _tool_missing("mypy")
    done = _run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
