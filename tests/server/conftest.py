"""Fixtures of the server tests: a throwaway PostgreSQL cluster (Debian's binaries)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pg_helpers import throwaway_postgresql


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A private PostgreSQL cluster for the module's tests."""
    with throwaway_postgresql() as url:
        yield url
