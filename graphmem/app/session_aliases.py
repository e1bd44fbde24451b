"""The sessions the HTTP front door opened, carried on by the real server.

The door (http_front_door.py) answers ``initialize`` before the server has loaded and names
the session's id. The server does not know that id; on the session's first request here its
``initialize`` (and ``notifications/initialized``) is replayed through the whole app, with
the client's own headers and credentials, and the session the server opens is used under the
door's id from then on: requests carry the server's id inward, answers the door's id outward.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.app.http_front_door import Opening

_SESSION = b"mcp-session-id"
_INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'


class SessionAliases:
    def __init__(self, app: ASGIApp, openings: dict[str, Opening]) -> None:
        self.app = app
        self._openings = openings
        self._sessions: dict[str, bytes | None] = {}  # door id -> server id; None: refused
        self._opening_lock = asyncio.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        alias = _header(scope, _SESSION) if scope["type"] == "http" and self._openings else None
        opening = self._openings.get(alias.decode("latin-1")) if alias else None
        if alias is None or opening is None or opening.principal != _principal(scope):
            await self.app(scope, receive, send)  # not a session the door opened for this caller
            return
        session = await self._session(alias.decode("latin-1"), opening, scope)
        if session is None:  # the server refused the replay: it answers this request itself
            await self.app(scope, receive, send)
            return
        status = 0

        async def send_as_alias(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k, alias if k == _SESSION else v) for k, v in message["headers"]]
                message = {**message, "headers": headers}
            await send(message)

        inward = [(k, session if k == _SESSION else v) for k, v in scope["headers"]]
        await self.app({**scope, "headers": inward}, receive, send_as_alias)
        ended = scope["method"] == "DELETE" and 200 <= status < 300
        if ended or status == 404:  # ended by the client, or gone from the server
            self._openings.pop(alias.decode("latin-1"), None)
            self._sessions.pop(alias.decode("latin-1"), None)

    async def _session(self, alias: str, opening: Opening, scope: Scope) -> bytes | None:
        async with self._opening_lock:
            if alias not in self._sessions:
                self._sessions[alias] = await self._replay(opening, scope)
            return self._sessions[alias]

    async def _replay(self, opening: Opening, scope: Scope) -> bytes | None:
        """Open the session in the server as the caller (the one who opened it at the door)."""
        credentials = _header(scope, b"authorization")  # the caller's, verified to match
        opened = (*opening.headers, *([(b"authorization", credentials)] if credentials else []))
        status, headers = await _exchange(self.app, scope, opened, opening.body)
        session = dict(headers).get(_SESSION)
        if status != 200 or session is None:
            return None
        extra = [(_SESSION, session)]
        if version := _header(scope, b"mcp-protocol-version"):
            extra.append((b"mcp-protocol-version", version))
        await _exchange(self.app, scope, (*opened, *extra), _INITIALIZED)
        return session


def _principal(scope: Scope) -> str | None:
    """The verified caller's token id, as the door recorded it (None: no credentials)."""
    token = getattr(scope.get("user"), "access_token", None)
    return getattr(token, "client_id", None)


async def _exchange(
    app: ASGIApp, scope: Scope, headers: tuple[tuple[bytes, bytes], ...], body: bytes
) -> tuple[int, list[tuple[bytes, bytes]]]:
    """POST ``body`` through ``app`` with ``headers``: the status and headers answered."""
    kept = [(k, v) for k, v in headers if k != b"content-length"]
    request = {
        **scope,
        "method": "POST",
        "headers": [*kept, (b"content-length", str(len(body)).encode())],
    }
    delivered = False
    answered: dict[str, Any] = {}

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # no disconnect: the app ends the exchange itself
        raise AssertionError("unreachable")

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answered["status"], answered["headers"] = message["status"], list(message["headers"])

    await app(request, receive, send)
    return answered.get("status", 500), answered.get("headers", [])


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((value for key, value in scope["headers"] if key == name), None)
