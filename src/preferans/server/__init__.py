"""The web server: play Preferans in a browser with friends and bots (``preferans serve``).

Needs the ``[web]`` extra.  :func:`create_app` builds the FastAPI application;
storage is SQLAlchemy (SQLite by default, PostgreSQL with ``--db``).  See
``docs/web.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(db: str | None = None, **kwargs: Any) -> FastAPI:
    """The application (imported lazily so the core does not need the web extra)."""
    from .app import create_app as _create

    return _create(db, **kwargs)
