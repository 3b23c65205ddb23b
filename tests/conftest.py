"""Test configuration shared by every folder of tests (helpers live beside this file)."""

import os
from collections.abc import Iterator
from typing import Any

import pytest

# A command's --lang left out means the system's language (preferans.i18n.system_language): the
# tests, and the commands they start, speak English whatever the developer's locale, unless a
# test says otherwise.
os.environ["LANGUAGE"] = "en"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    """Tests that save screenshots (browser tests) say where they are."""
    where = getattr(config, "preferans_artifacts", None)
    if where is not None:
        terminalreporter.write_line(f"screenshots saved in {where}")


# scripts/test runs the tests in parallel (pytest-xdist): a worker's screenshots are reported
# by the controller, which learns where they went when the worker finishes.
def pytest_sessionfinish(session: Any) -> None:
    where = getattr(session.config, "preferans_artifacts", None)
    if where is not None and hasattr(session.config, "workeroutput"):
        session.config.workeroutput["preferans_artifacts"] = str(where)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    where = getattr(node, "workeroutput", {}).get("preferans_artifacts")
    if where is not None:
        node.config.preferans_artifacts = where


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A private PostgreSQL cluster (Debian's binaries) for the module's tests: the server's
    PostgreSQL and cluster tests.  (One conftest for all folders: mypy wants one module of a name.)"""
    from pg_helpers import throwaway_postgresql

    with throwaway_postgresql() as url:
        yield url
