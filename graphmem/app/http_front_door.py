"""First contact over HTTP within 2 s: the port answers while the server is loading.

``graphmem serve --transport http`` binds its port before the web stack is imported (about
3 s of imports) and, until the real server takes the listening socket over, a thread answers
what first_contact.json can answer, as the real server would:

- the handshake of the session protocol versions: ``initialize`` (the door opens the session
  and names its id), then ``notifications/initialized``, ``ping`` and a first ``tools/list``
  in a session the door opened;
- modern (per-request) versions: ``server/discover`` and a first ``tools/list``, when the
  envelope agrees with the routing headers.

Only the plain case is answered: ``POST /mcp`` with one JSON-RPC message, an Accept naming
JSON and event streams, a loopback Host, no Origin, and, where credentials are configured, a
bearer token the tokens table accepts (a JWT waits for the server). Every other request waits
until the server has the socket and is then relayed to it byte for byte; what is refused is
refused by the server, in its words. Each answer closes its connection, so the client's next
request reaches whoever listens by then.

The sessions the door opened are handed over with the socket: session_aliases.py opens each
in the server on its first use there, by replaying its ``initialize``, and keeps its id.

Standard library, settings and tokens only (pydantic): nothing here may load the web stack.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from graphmem.app.frontdoor import VERSION_META, FirstContact, option, toolset_from
from graphmem.app.tokens import TokenTable

ENDPOINT = "/mcp"
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_MAX_HEAD = 64 * 1024
_MAX_BODY = 1024 * 1024  # a first-contact request is small; a larger one goes to the server
_READ_TIMEOUT = 30.0
_ROUTING_HEADERS = ("mcp-protocol-version", "mcp-method", "mcp-name")
_SESSION = "mcp-session-id"

_opened: HttpFrontDoor | None = None


@dataclass(frozen=True)
class Opening:
    """An ``initialize`` the door answered: replayed to the server when the session is used."""

    headers: tuple[tuple[bytes, bytes], ...]  # lower-case names, as ASGI has them
    body: bytes


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
        self, listener: socket.socket, first_contact: FirstContact, tokens: TokenTable | None
    ) -> None:
        self._listener = listener
        self._first_contact = first_contact
        self._tokens = tokens
        port = listener.getsockname()[1]
        self._hosts = {f"{name}:{port}" for name in _LOOPBACK_NAMES}
        self._server_address = _reachable(listener.getsockname())
        self.openings: dict[str, Opening] = {}
        self._stop = threading.Event()
        self._handed_over = threading.Event()
        self._acceptor = threading.Thread(target=self._accept, name="graphmem-door", daemon=True)

    def start(self) -> None:
        self._acceptor.start()

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
            try:
                connection, _ = self._listener.accept()
            except (TimeoutError, BlockingIOError, InterruptedError):
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()
        self._listener.settimeout(None)

    def _serve(self, connection: socket.socket) -> None:
        try:
            connection.settimeout(_READ_TIMEOUT)
            received, request = _read_request(connection)
            response = self._answer(request) if request is not None else None
            if response is None:
                connection.settimeout(None)
                self._relay(connection, received)
                return
            connection.sendall(response)
        except OSError:
            pass  # the client went away: nothing to answer
        finally:
            connection.close()

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
        if (request.header("host") or "").lower() not in self._hosts or not self._admits(request):
            return None
        if any(len([k for k, _ in request.headers if k == name]) > 1 for name in _ROUTING_HEADERS):
            return None
        try:
            message = json.loads(request.body)
        except ValueError:
            return None
        plain = isinstance(message, dict) and message.get("jsonrpc") == "2.0"
        return message if plain else None

    def _admits(self, request: Request) -> bool:
        if self._tokens is None:
            return True  # no credentials configured: the server asks for none
        scheme, _, token = (request.header("authorization") or "").partition(" ")
        return scheme.lower() == "bearer" and self._tokens.find(token.strip()) is not None

    def _session_answer(self, request: Request, message: dict[str, Any]) -> bytes | None:
        method, params = message.get("method"), message.get("params") or {}
        session = request.header(_SESSION)
        if method == "initialize" and "id" in message and session is None:
            result = self._first_contact.result(method, params)
            session = uuid.uuid4().hex
            assert request.body is not None
            headers = tuple((k.encode("latin-1"), v.encode("latin-1")) for k, v in request.headers)
            self.openings[session] = Opening(headers, request.body)
            return _event_stream(message["id"], result, session)
        if session not in self.openings:
            return None  # the server's own sessions, and unknown ones: the server answers
        if method == "notifications/initialized" and "id" not in message:
            return _http(202, [("content-type", "application/json"), (_SESSION, session)], b"")
        if "id" not in message:
            return None
        if method == "ping":
            return _event_stream(message["id"], {}, session)
        if method == "tools/list":
            result = self._first_contact.result(method, params)
            return _event_stream(message["id"], result, session) if result is not None else None
        return None

    def _modern_answer(
        self, request: Request, message: dict[str, Any], version: str
    ) -> bytes | None:
        method, params = message.get("method"), message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        if not isinstance(meta, dict) or "id" not in message:
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


def _read_request(connection: socket.socket) -> tuple[bytes, Request | None]:
    """What was read, and the request if it is one the door can look at."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionResetError
        received += chunk
        if len(received) > _MAX_HEAD and b"\r\n\r\n" not in received:
            return received, None
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return received, None
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon:
            return received, None
        headers.append((name.strip().lower(), value.strip()))
    request = Request(parts[0], parts[1], tuple(headers), None)
    length = request.header("content-length")
    if request.header("transfer-encoding") is not None or not (length or "0").isdigit():
        return received, request
    if int(length or "0") > _MAX_BODY:
        return received, request
    while len(body) < int(length or "0"):
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionResetError
        body += chunk
        received += chunk
    return received, Request(request.method, request.target, request.headers, body)


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
    return not os.environ.get("GRAPHMEM_VERIFIER_KEYS_FILE")  # verify_fact: not on file


def open_http_front_door(argv: list[str]) -> HttpFrontDoor | None:
    """Bind the port and start answering, if the door applies and the port is free (else the
    server binds it later and reports what is wrong, as without the door)."""
    global _opened
    first_contact = FirstContact.load(toolset_from(argv)) if applies(argv) else None
    if first_contact is None:
        return None
    from graphmem.app.settings import Settings

    try:
        settings = Settings()
        host = option(argv, "--host") or settings.host
        port = int(option(argv, "--port") or settings.port)
    except ValueError:
        return None  # the command line reports the setting
    loopback = host in ("localhost", "127.0.0.1", "::1")
    if not loopback and not settings.has_credentials:
        return None  # refused by the command line
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family, backlog=2048)
    except OSError:
        return None
    tokens = None
    if settings.has_credentials:
        tokens = TokenTable(settings.http_token_sha256, settings.tenant, settings.tokens_file)
    _opened = HttpFrontDoor(listener, first_contact, tokens)
    _opened.start()
    signal.signal(signal.SIGTERM, _stop_while_loading)  # serve installs its own later
    return _opened


def _stop_while_loading(signum: int, frame: object) -> None:
    """SIGTERM before the server runs: stop as cleanly as the server would."""
    sys.stderr.write("graphmem stopped\n")
    raise SystemExit(0)


def opened() -> HttpFrontDoor | None:
    """The door this process opened, if any: ``serve`` takes its socket over."""
    return _opened
