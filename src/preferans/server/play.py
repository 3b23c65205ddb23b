"""The game's WebSocket ``/ws/{table}``: one connection of a player or a spectator.

The seat comes from the seat cookie; the ``Host`` and ``Origin`` checks happened
in :mod:`.guard`.  Frames are handled by the hub (:mod:`.hub`), one at a time per
connection, so a client's messages are answered in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import MutableMapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError

from .api import cookie_name
from .club import account_of
from .guard import client_address
from .hub import Client, Elsewhere, Hub, error_frame, store_failure

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws(websocket: WebSocket, table_id: str) -> None:
    hub: Hub = websocket.app.state.hub
    address = client_address(websocket)
    try:
        live = await hub.table(table_id)
    except Elsewhere as e:
        await websocket.app.state.forward_ws(websocket, e.url)
        return
    except SQLAlchemyError as e:
        await _refuse(websocket, "db_unavailable", store_failure(e).replace("the move", "the table"), 1011)
        return
    if live is None:
        await _refuse(websocket, "no_table", f"no table {table_id[:32]!r}", 4404)
        return
    token = websocket.cookies.get(cookie_name(table_id))
    try:
        account = await account_of(websocket)  # a signed-in player's seat follows his account
    except SQLAlchemyError:
        account = None
    account_id = None if account is None else account.id
    if hub.admit(live, address, seated=live.game.is_member(token, account_id)) is not None:
        await websocket.close(code=4429)  # before the handshake (403): a storm costs as little as it can
        return
    await websocket.accept()
    try:
        client = await hub.connect(live, token, address, websocket.send_text, account_id)
    except SQLAlchemyError as e:
        await websocket.send_text(error_frame("db_unavailable", store_failure(e).replace("the move", "the seat")))
        await websocket.close(code=1011)
        return
    pump = asyncio.create_task(client.pump())
    closers: set[asyncio.Task[None]] = set()

    def pump_done(_: object) -> None:
        # The pump stops when the client is dropped (too slow to read its frames, table gone): hang up.
        if client.closed:
            task = asyncio.ensure_future(_close_quietly(websocket, 1013))
            closers.add(task)
            task.add_done_callback(closers.discard)

    pump.add_done_callback(pump_done)
    try:
        while not client.closed:
            message = await _next_frame(websocket, client)
            if message is None or message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                hub.reject(client, "bad_message", "send JSON in text frames, not binary ones")
            else:
                await hub.receive(client, text)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.disconnect(client)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, timeout=1.0)
        pump.cancel()
    await _close_quietly(websocket, 1000)


async def _next_frame(websocket: WebSocket, client: Client) -> MutableMapping[str, Any] | None:
    """The client's next message, or ``None`` once the server has closed the client (a client too
    slow to read, its table leaving memory, the server stopping): :meth:`Client.close` cancels
    this wait, and only this wait — a frame being handled is never cut off."""
    task = asyncio.current_task()
    client.reader = task
    try:
        return await websocket.receive()
    except asyncio.CancelledError:
        # Ours (the client was closed) unless somebody else cancelled the task too (shutdown).
        if client.closed and task is not None and task.uncancel() == 0:
            return None
        raise
    finally:
        client.reader = None


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    await websocket.accept()
    await websocket.send_text(error_frame(code, message))
    await websocket.close(code=close)


async def _close_quietly(websocket: WebSocket, code: int) -> None:
    # A client that reads nothing can keep a send waiting for ever: the hang-up is given a second.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code), timeout=1.0)
