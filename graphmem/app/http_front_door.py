"""First contact over HTTP within 2 s: the port answers while the server is loading.

``graphmem serve --transport http`` binds its port before the web stack is imported (3 to 5 s
of imports) and, until the real server takes the listening socket over, a thread answers
what first_contact.json can answer, as the real server would:

- the handshake of the session protocol versions: ``initialize`` (the door opens the session
  and names its id), then ``notifications/initialized``, ``ping`` and a first ``tools/list``
  in a session the door opened;
- modern (per-request) versions: ``server/discover`` and a first ``tools/list``, when the
  envelope agrees with the routing headers.

Only the plain case is answered: ``POST /mcp`` with one well-formed JSON-RPC message within
the server's body limit, an Accept naming JSON and event streams, a loopback Host, no Origin,
and, where credentials are configured, a bearer token from the tokens table with the ``read``
scope (a JWT waits for the server). Every other request waits
until the server has the socket and is then relayed to it byte for byte; what is refused is
refused by the server, in its words. Each answer closes its connection, so the client's next
request reaches whoever listens by then.

The sessions the door opened are handed over with the socket: session_aliases.py opens each
in the server on its first use there, by replaying its ``initialize`` as the caller who
opened it (no one else may use it), and keeps its id.

Standard library, settings and tokens only (pydantic): nothing here may load the web stack.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sys
import threading
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any

from graphmem.app.frontdoor import VERSION_META, FirstContact, option, toolset_from
from graphmem.app.tokens import TokenTable

ENDPOINT = "/mcp"
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_MAX_HEAD = 64 * 1024
_READ_SECONDS = 10.0  # for a whole request; a slower client is relayed as far as it got
_MAX_CONNECTIONS = 64  # served at once; more wait in the backlog for the server
_MAX_OPENINGS = 1024
_TOKEN_CHARS = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz")
_ROUTING_HEADERS = ("mcp-protocol-version", "mcp-method", "mcp-name")
_SESSION = "mcp-session-id"

_opened: HttpFrontDoor | None = None


@dataclass(frozen=True)
class Opening:
    """An ``initialize`` the door answered: replayed to the server when the session is used,
    by the principal who opened it only."""

    headers: tuple[tuple[bytes, bytes], ...]  # lower-case names, as ASGI has them; no credentials
    body: bytes
    principal: str | None  # the token's id; None where the server asks for no credentials


@dataclass(frozen=True)
class Request:
    method: str
    target: str
    headers: tuple[tuple[str, str], ...]  # lower-case names
    body: bytes | None  # None: not read (chunked, too large), only relayed

    def header(self, name: str) -> str | None:
        values = [value for key, value in self.headers if key == name]
        return values[0] if len(values) == 1 else None  # a repeated header is not plain


class HttpFrontDoor:
    def __init__(
        self,
        listener: socket.socket,
        host: str,
        first_contact: FirstContact,
        tokens: TokenTable | None,
        max_body: int,
    ) -> None:
        self._listener = listener
        self.host = host
        self._first_contact = first_contact
        self._tokens = tokens
        self._max_body = max_body
        self._slots = threading.BoundedSemaphore(_MAX_CONNECTIONS)
        port = listener.getsockname()[1]
        self._hosts = {f"{name}:{port}" for name in _LOOPBACK_NAMES}
        self._server_address = _reachable(listener.getsockname())
        self.openings: dict[str, Opening] = {}
        self._stop = threading.Event()
        self._handed_over = threading.Event()
        self._acceptor = threading.Thread(target=self._accept, name="graphmem-door", daemon=True)

    def start(self) -> None:
        self._acceptor.start()

    def binds(self, host: str, port: int) -> bool:
        """Whether this is the address the server is configured to serve."""
        return (host, port) == (self.host, self._listener.getsockname()[1])

    def hand_over(self) -> socket.socket:
        """Stop answering; the listening socket, for the real server. Requests that wait are
        relayed from now on (their connections queue until the server accepts)."""
        self._stop.set()
        self._acceptor.join()
        self._handed_over.set()
        return self._listener

    # --- connections ---------------------------------------------------------------------
    def _accept(self) -> None:
        self._listener.settimeout(0.05)  # look at the stop flag between waits
        while not self._stop.is_set():
            if not self._slots.acquire(timeout=0.05):
                continue  # all slots busy: new connections wait in the backlog
            try:
                connection, _ = self._listener.accept()
            except (TimeoutError, BlockingIOError, InterruptedError):
                self._slots.release()
                continue
            except OSError:
                self._slots.release()
                return
            try:
                threading.Thread(target=self._serve, args=(connection,), daemon=True).start()
            except RuntimeError:  # no thread to be had: the client retries
                connection.close()
                self._slots.release()
        self._listener.settimeout(None)

    def _serve(self, connection: socket.socket) -> None:
        try:
            received, request = _read_request(connection, self._max_body)
            try:
                response = self._answer(request) if request is not None else None
            except Exception:  # what the door cannot judge (a bad tokens file), the server answers
                response = None
            if response is None:
                connection.settimeout(None)
                self._relay(connection, received)
                return
            connection.sendall(response)
        except OSError:
            pass  # the client went away: nothing to answer
        finally:
            connection.close()
            self._slots.release()

    def _relay(self, client: socket.socket, received: bytes) -> None:
        self._handed_over.wait()
        with socket.create_connection(self._server_address) as server:
            server.sendall(received)
            upstream = threading.Thread(target=_pump, args=(client, server), daemon=True)
            upstream.start()
            _pump(server, client)

    # --- answers ---------------------------------------------------------------------------
    def _answer(self, request: Request) -> bytes | None:
        """The whole HTTP response the server would give, or None: relay it."""
        message = self._plain_message(request)
        if message is None:
            return None
        version = request.header("mcp-protocol-version")
        if version is None or version in self._first_contact.session_versions:
            return self._session_answer(request, message)
        if self._first_contact.is_modern(version):
            return self._modern_answer(request, message, version)
        return None

    def _plain_message(self, request: Request) -> dict[str, Any] | None:
        if request.method != "POST" or request.target != ENDPOINT or request.body is None:
            return None
        accept = request.header("accept") or ""
        if "application/json" not in accept or "text/event-stream" not in accept:
            return None
        content_type = (request.header("content-type") or "").split(";")[0].strip()
        if content_type != "application/json" or request.header("origin") is not None:
            return None
        if (request.header("host") or "").lower() not in self._hosts:
            return None
        if any(len([k for k, _ in request.headers if k == name]) > 1 for name in _ROUTING_HEADERS):
            return None
        try:
            message = json.loads(request.body)
        except ValueError:
            return None
        plain = isinstance(message, dict) and message.get("jsonrpc") == "2.0"
        return message if plain else None

    def _principal(self, request: Request) -> str | None:
        """The token id of a bearer token the server accepts with the read scope; raises
        LookupError for any other credentials (the server answers those)."""
        if self._tokens is None:
            return None  # no credentials configured: the server asks for none
        value = request.header("authorization") or ""
        if not value.lower().startswith("bearer "):
            raise LookupError("no bearer token")
        found = self._tokens.find(value[7:])  # as the server reads it
        if found is None or "read" not in found.scopes:
            raise LookupError("not a token the door can vouch for")
        return found.id

    def _session_answer(self, request: Request, message: dict[str, Any]) -> bytes | None:
        method, params = message.get("method"), message.get("params") or {}
        session = request.header(_SESSION)
        principal = self._principal(request)
        if method == "initialize" and session is None and _is_hello(message):
            if len(self.openings) >= _MAX_OPENINGS:
                return None
            session = uuid.uuid4().hex
            assert request.body is not None
            headers = tuple(
                (k.encode("latin-1"), v.encode("latin-1"))
                for k, v in request.headers
                if k != "authorization"  # the replay runs as the caller the server verified
            )
            self.openings[session] = Opening(headers, request.body, principal)
            result = self._first_contact.result(method, params)
            return _event_stream(message["id"], result, session)
        opening = self.openings.get(session) if session is not None else None
        if session is None or opening is None or opening.principal != principal:
            return None  # the server's own sessions, and unknown ones: the server answers
        if method == "notifications/initialized" and "id" not in message:
            return _http(202, [("content-type", "application/json"), (_SESSION, session)], b"")
        if not _has_id(message):
            return None
        if method == "ping":
            return _event_stream(message["id"], {}, session)
        if method == "tools/list" and isinstance(params, dict):
            result = self._first_contact.result(method, params)
            return _event_stream(message["id"], result, session) if result is not None else None
        return None

    def _modern_answer(
        self, request: Request, message: dict[str, Any], version: str
    ) -> bytes | None:
        self._principal(request)
        method, params = message.get("method"), message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if not isinstance(meta, dict) or not _has_id(message):
            return None
        envelope = meta.get(VERSION_META) == version and _CAPABILITIES_META in meta
        if not envelope or request.header("mcp-method") != method:
            return None
        if method not in ("server/discover", "tools/list"):
            return None
        result = self._first_contact.result(method, params)
        if result is None:
            return None
        body = _json({"jsonrpc": "2.0", "id": message["id"], "result": result})
        return _http(200, [("content-type", "application/json")], body)


_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"


def _has_id(message: dict[str, Any]) -> bool:
    request_id = message.get("id")
    return isinstance(request_id, str) or (
        isinstance(request_id, int) and not isinstance(request_id, bool)
    )


def _is_hello(message: dict[str, Any]) -> bool:
    """An ``initialize`` the server takes as it is."""
    params = message.get("params")
    if not _has_id(message) or not isinstance(params, dict):
        return False
    info = params.get("clientInfo")
    return (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    )


def _read_request(connection: socket.socket, max_body: int) -> tuple[bytes, Request | None]:
    """What was read, and the request if it is one the door can look at (a request it does
    not parse, a slow one or one whose body it does not read is relayed as far as read)."""
    deadline = time.monotonic() + _READ_SECONDS
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = _receive(connection, deadline)
        if chunk is None or len(received) > _MAX_HEAD:
            return received, None
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    request = _parse_head(head.decode("latin-1"))
    if request is None:
        return received, None
    length = request.header("content-length") or ""
    unread = request.header("transfer-encoding") is not None or request.header("expect")
    if unread or not re.fullmatch(r"[0-9]{1,12}", length) or int(length) > max_body:
        return received, request
    while len(body) < int(length):
        chunk = _receive(connection, deadline)
        if chunk is None:
            return received, None
        body += chunk
        received += chunk
    return received, replace(request, body=body)


def _receive(connection: socket.socket, deadline: float) -> bytes | None:
    """The next bytes, or None when the client is too slow; raises when it has gone."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    connection.settimeout(remaining)
    try:
        chunk = connection.recv(65536)
    except TimeoutError:
        return None
    if not chunk:
        raise ConnectionResetError
    return chunk


def _parse_head(head: str) -> Request | None:
    lines = head.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or parts[2] not in ("HTTP/1.1", "HTTP/1.0"):
        return None
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or not set(name.lower()) <= _TOKEN_CHARS:
            return None  # e.g. a space before the colon: the server refuses it
        headers.append((name.lower(), value.strip(" \t")))
    return Request(parts[0], parts[1], tuple(headers), None)


def _pump(source: socket.socket, target: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while chunk := source.recv(65536):
            target.sendall(chunk)
    with contextlib.suppress(OSError):
        target.shutdown(socket.SHUT_WR)


def _event_stream(request_id: Any, result: Any, session: str) -> bytes:
    """A JSON-RPC result as the server sends it on a session: one event on a stream."""
    event = b"event: message\r\ndata: " + _json(
        {"jsonrpc": "2.0", "id": request_id, "result": result}
    )
    headers = [("content-type", "text/event-stream"), ("cache-control", "no-cache, no-transform")]
    return _http(200, [*headers, (_SESSION, session)], event + b"\r\n\r\n")


def _http(status: int, headers: list[tuple[str, str]], body: bytes) -> bytes:
    reason = {200: "OK", 202: "Accepted"}[status]
    lines = [f"HTTP/1.1 {status} {reason}", *(f"{k}: {v}" for k, v in headers)]
    lines += [f"content-length: {len(body)}", "connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1") + body


def _json(message: Any) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def _reachable(address: tuple[Any, ...]) -> tuple[str, int]:
    """Where this process reaches its own listening socket."""
    host: str = address[0]
    unspecified = {"0.0.0.0": "127.0.0.1", "::": "::1"}  # noqa: S104 - names, not a bind
    return unspecified.get(host, host), address[1]


# --- opening -------------------------------------------------------------------------------
def applies(argv: list[str]) -> bool:
    """``graphmem serve --transport http``, with answers on file for its configuration."""
    if not argv or argv[0] != "serve" or os.environ.get("GRAPHMEM_FRONT_DOOR", "1") == "0":
        return False
    if "-h" in argv or "--help" in argv or option(argv, "--transport") != "http":
        return False
    if os.environ.get("GRAPHMEM_VERIFIER_KEYS_FILE"):
        return False  # verify_fact is listed: not on file
    # answers shaped for sessions streamed as events, FastMCP's defaults
    return not any(
        os.environ.get(f"FASTMCP_{name}") for name in ("STATELESS_HTTP", "JSON_RESPONSE")
    )


def open_http_front_door(argv: list[str]) -> HttpFrontDoor | None:
    """Bind the port and start answering, if the door applies and the port is free (else the
    server binds it later and reports what is wrong, as without the door)."""
    global _opened
    first_contact = FirstContact.load(toolset_from(argv)) if applies(argv) else None
    if first_contact is None:
        return None
    from graphmem.core.settings import Settings

    try:
        settings = Settings()
        host = option(argv, "--host") or settings.host
        port = int(option(argv, "--port") or settings.port)
    except ValueError:
        return None  # the command line reports the setting
    loopback = host in ("localhost", "127.0.0.1", "::1")
    if not loopback and not settings.has_credentials:
        return None  # refused by the command line
    try:
        listener = open_listener(host, port)
    except OSError:
        return None
    tokens = None
    if settings.has_credentials:
        tokens = TokenTable(settings.http_token_sha256, settings.tenant, settings.tokens_file)
    _opened = HttpFrontDoor(listener, host, first_contact, tokens, settings.max_request_bytes)
    _opened.start()
    signal.signal(signal.SIGTERM, _stop_while_loading)  # serve installs its own later
    return _opened


def open_listener(host: str, port: int) -> socket.socket:
    """The listening socket, made as asyncio makes its own: with IPPROTO_TCP named, so the
    server's transports turn Nagle off on the connections it accepts (asyncio checks the
    protocol number; with 0 every answer waited for the client's delayed ACK, ~40 ms)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, int(host != "::"))
        listener.bind((host, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    return listener


def _stop_while_loading(signum: int, frame: object) -> None:
    """SIGTERM before the server runs: stop as cleanly as the server would."""
    sys.stderr.write("graphmem stopped\n")
    raise SystemExit(0)


def opened() -> HttpFrontDoor | None:
    """The door this process opened, if any: ``serve`` takes its socket over."""
    return _opened
