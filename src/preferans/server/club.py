"""The club: what keeps players coming back — accounts, the history of their pulkas, ratings,
the lobby of open tables and duplicate matches (docs/club.md).

:class:`Club` is the service the routes (:mod:`.club_api`, :mod:`.api`) and the hub
(:class:`~preferans.server.hub.ClubHooks`) call; storage is :mod:`.club_storage`,
passwords and sessions :mod:`.accounts`, ratings :mod:`.ratings`, matches
:mod:`.matches`.  Blocking methods are called from threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import Request

from .accounts import SESSION_COOKIE, Accounts, Attempts
from .club_storage import Account, ClubStorage, FinishedGame
from .ratings import rate, rating_pool

if TYPE_CHECKING:
    from .game import TableGame
    from .hub import Hub
    from .settings import ServerConfig
    from .storage import Storage

__all__ = ["Club", "account_of"]


class Club:
    """Accounts, history, ratings, the lobby and matches on the server's database."""

    def __init__(self, storage: Storage, config: ServerConfig) -> None:
        self.store = ClubStorage(storage)
        secret = config.session_secret or self.store.secret()
        self.accounts = Accounts(self.store, secret, Attempts(self.store, config.login_rate, config.login_burst))

    # -- the hub's hooks (ClubHooks) -----------------------------------------------------------
    def seat_accounts(self, table_id: str) -> dict[int, int]:
        return self.store.seat_accounts(table_id)

    def bind(self, game: TableGame, seat: int, account: int) -> None:
        self.store.bind_seat(game.id, seat, account)
        game.accounts[seat] = account

    def was_recorded(self, table_id: str) -> bool:
        return self.store.has_game(table_id)

    def register(self, game: TableGame, private: bool, match: tuple[str, int] | None = None) -> None:
        """A new table for the lobby (the accounts holding its seats with it)."""
        match_id, number = match if match is not None else (None, 0)
        self.store.register_table(game.id, private, match_id, number, dict(game.accounts))

    def registrar(self, private: bool, match: tuple[str, int] | None = None) -> Callable[[TableGame], None]:
        return lambda game: self.register(game, private, match)

    def game_finished(self, game: TableGame) -> bool:
        """Keep a finished pulka in the history of every account at it, and rate it — once
        (False when it was kept before, or nobody at it has an account)."""
        finished = self.finished_game(game)
        if finished is None:
            return False
        return self.store.finish(finished, rate)

    def finished_game(self, game: TableGame) -> FinishedGame | None:
        """What the club keeps of a finished pulka, and whether (and in which pool) it is rated.

        Rated: the pools closed (a pulka ended by agreement is kept, not rated: a player could
        otherwise stop whenever he is ahead), at least one deal was played, every seat is an
        account or one of our bots (a guest has no rating to move), one of them an account,
        and the rules are a preset's (:func:`.ratings.rating_pool`).
        """
        table, pulka = game.table, game.pulka
        if table is None or pulka is None or not game.accounts:
            return None
        settlement = pulka.settlement()
        names = game.pulka_names()
        account_names: dict[int, str] = {}
        for holder in set(game.accounts.values()):
            account = self.store.account(holder)
            account_names[holder] = account.name if account is not None else ""
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(game.seats):
            account_id = game.accounts.get(i)
            if account_id is not None:
                identity = f"a:{account_id}"
            elif s.kind == "bot" and not s.token_hash:  # a bot from the start (not one playing on for a person)
                identity = f"bot:{s.level}"
            else:
                identity = ""  # a guest
            seats.append({"name": names[i], "kind": "human" if s.token_hash else s.kind, "level": s.level,
                          "account": account_id, "profile": account_names.get(account_id or -1, ""),
                          "identity": identity,
                          "result": str(settlement.rounded[i]),  # exact: the ratings' input
                          "whole": settlement.whole[i]})  # fmt: skip  # the profile's: whole whists, as on paper
        ending = table.end_reason or "closed"
        pool = rating_pool(game.rules.name, game.players)
        rated = (ending != "agreement" and len(pulka.results) > 0 and all(s["identity"] for s in seats)
                 and bool(pool))  # fmt: skip
        record = game.record or game.game_record()
        return FinishedGame(game.id, game.rules.name, game.players, game.rules.pool_target, len(pulka.results),
                            ending, pool if rated else "", game.config.spectators, seats, record)  # fmt: skip


async def account_of(request: Any) -> Account | None:
    """The signed-in account of an HTTP request or a WebSocket (``None``: a guest)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    club: Club | None = getattr(request.app.state, "club", None)
    if club is None:
        return None
    hub: Hub = request.app.state.hub
    return await hub.db(club.accounts.account_of, cookie)


def club_of(request: Request) -> Club:
    club: Club = request.app.state.club
    return club
