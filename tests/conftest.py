"""Test configuration shared by every folder of tests (helpers live beside this file)."""

from typing import Any


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    """Tests that save screenshots (browser tests) say where they are."""
    where = getattr(config, "preferans_artifacts", None)
    if where is not None:
        terminalreporter.write_line(f"screenshots saved in {where}")
