"""The door of the server: checks every request meets before any route sees it (ASGI middleware).

* ``Host`` must be one of the server's names (:func:`.settings.host_allowed`), so a
  DNS-rebinding page cannot reach it under another name;
* a WebSocket or a ``POST`` sent by a browser must come from a page of this server
  (``Origin`` equal to the address it was reached at; ``Sec-Fetch-Site`` not
  cross-site), and a ``POST`` must say ``Content-Type: application/json`` — so another
  site's page cannot seat a visitor or act with his cookie;
* WebSocket connections opened too fast from one address are refused before the
  handshake;
* a request body is at most :data:`.settings.MAX_BODY` bytes, sent within ``body_timeout``
  seconds (else 408, and the connection is closed); a larger
  ``Content-Length`` is refused (413) before a byte is read, and a body without one
  is read only up to the limit, and the connection is closed with the refusal (so the rest
  is never read);
* every response carries a Content-Security-Policy (scripts, styles and connections
  from this server only; no framing), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: same-origin``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from .settings import MAX_BODY, host_allowed

__all__ = ["SECURITY_HEADERS", "Guard", "same_origin"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PEER_HEADER = "x-preferans-peer"
"""A request forwarded by another process of the cluster carries the cluster's secret here
(and the client's address in ``X-Forwarded-For``)."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


def same_origin(origin: str | None, host: str | None, scheme: str = "http",
                allowed: Sequence[str] | None = None) -> bool:  # fmt: skip
    """A browser's request must come from a page of this server (scripts send no Origin): the
    same scheme (a WebSocket's ``ws``/``wss`` is its page's ``http``/``https``) and the same host
    and port — or, behind a proxy that ends TLS, one of the ``allowed`` origins.

    >>> same_origin("http://h:8000", "h:8000"), same_origin("https://evil.example", "h:8000")
    (True, False)
    >>> same_origin(None, "h:8000"), same_origin("null", "h:8000")
    (True, False)
    >>> same_origin("https://h:8000", "h:8000", "ws"), same_origin("https://h:8000", "h:8000", "wss")
    (False, True)
    >>> same_origin("https://pref.example", "127.0.0.1:8000", allowed=["https://pref.example"])
    True
    """
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if allowed:
        return origin in (a.rstrip("/").lower() for a in allowed)
    page_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return host is not None and origin == f"{page_scheme}://{host.lower()}"


class Guard:
    """Wraps the application with the checks above."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str] | None = None, max_body: int = MAX_BODY,
                 connect_limited: Callable[[str], bool] | None = None,
                 allowed_origins: Sequence[str] | None = None, body_timeout: float = 10.0) -> None:  # fmt: skip
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = allowed_origins  # behind a proxy that ends TLS: the pages' origins
        self.body_timeout = body_timeout  # a body sent slowly holds a socket and a task: it has a limit
        self.max_body = max_body
        self.connect_limited = connect_limited  # per address: WebSocket connections opened too fast

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host")
        secret = getattr(getattr(scope.get("app"), "state", None), "peer_secret", "")
        if secret and secrets.compare_digest(headers.get(PEER_HEADER, ""), secret):
            # Forwarded by a process of the cluster, which made these checks itself.
            await self.app(scope, receive, _with_headers(send) if kind == "http" else send)
            return
        if kind == "websocket":
            client = scope.get("client")
            limited = self.connect_limited is not None and self.connect_limited(client[0] if client else "?")
            if limited or not host_allowed(host, self.allowed_hosts) or not self._browser_ok(headers, host, scope):
                await receive()  # websocket.connect
                # Refused before the handshake (403), before any routing: a storm costs as little as it can.
                await send({"type": "websocket.close", "code": 4429 if limited else 4403})
                return
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        if not host_allowed(host, self.allowed_hosts):
            await _refuse(send, 400, "bad_host", f"this server does not answer to the name {host!r} (--allowed-host)")
            return
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        if not self._browser_ok(headers, host, scope):
            await _refuse(send, 403, "cross_origin", "requests must come from this server's own pages")
            return
        ctype = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            await _refuse(send, 415, "bad_content_type", "send the body as JSON (Content-Type: application/json)")
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _refuse(send, 413, "too_big", f"the body is over {self.max_body} bytes")
            return
        body = bytearray()
        deadline = asyncio.get_running_loop().time() + self.body_timeout
        while True:  # at most max_body bytes are read, within body_timeout, whatever the client sends
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except TimeoutError:
                await _refuse(send, 408, "too_slow", f"the body did not arrive within {self.body_timeout:g} s")
                return
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await _refuse(send, 413, "too_big", f"the body is over {self.max_body} bytes")
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _browser_ok(self, headers: dict[str, str], host: str | None, scope: Scope) -> bool:
        if headers.get("sec-fetch-site") == "cross-site":
            return False
        return same_origin(headers.get("origin"), host, scope.get("scheme", "http"), self.allowed_origins)


def _with_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", ())}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
            message["headers"] = [*message.get("headers", ()), *extra]
        await send(message)

    return wrapped


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    """Refuse the request and close the connection: the body was not read, and keeping the
    connection alive would make the server read (and drop) all of it before the next request —
    a 20 MB body cost the event loop 20 MB of parsing."""
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]  # fmt: skip
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def client_address(conn: Any) -> str:
    """The address a request came from (for per-address limits).

    ``X-Forwarded-For`` is believed only from a process of the same cluster (it proves
    it with the cluster's secret); a reverse proxy in front should pass each
    connection to one process and keep the client's address itself.
    """
    secret = getattr(conn.app.state, "peer_secret", "")
    if secret and conn.headers.get(PEER_HEADER) == secret:
        forwarded = conn.headers.get("x-forwarded-for", "").split(",")[0].strip()
        if forwarded:
            return str(forwarded)
    return conn.client.host if conn.client else "?"
