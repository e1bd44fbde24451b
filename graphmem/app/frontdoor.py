"""First contact on stdio within 2 s: the front door answers while the server is loading.

Importing the MCP stack and deriving graphmem's tool schemas takes about 3 s, longer than an
agent host should wait for a handshake. So ``graphmem serve`` on stdio puts a relay between
the client and the real server before anything heavy is imported (this module uses the
standard library only):

- the process's file descriptors 0 and 1 become pipes to the relay, so the real server (and
  anything else in the process) reads and writes them exactly as it would the terminal;
- until the real server has answered the client's ``initialize``, the relay answers
  ``initialize``, ``ping`` and ``tools/list`` itself from ``first_contact.json``, which a test
  keeps equal to what the real server answers (regenerate it with ``python -m
  graphmem.app.frontdoor > graphmem/app/first_contact.json``);
- every other message is passed on in order; the client's ``initialize`` is passed on under
  the relay's own request id, and the real server's answer to it is dropped;
- from then on the relay only copies lines both ways. A line the server writes that is not
  JSON-RPC (a stray print) goes to stderr, never to the client.

The relay steps aside (``open`` returns False) for a configuration it has no answers for
(``verify_fact`` listed, an unknown toolset), and with ``GRAPHMEM_FRONT_DOOR=0``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

FIRST_CONTACT = Path(__file__).with_name("first_contact.json")
REPLAY_ID = "graphmem-front-door-initialize"
_ANSWERED = (b'"initialize"', b'"server/discover"', b'"tools/list"')  # methods, as JSON strings
VERSION_META = "io.modelcontextprotocol/protocolVersion"
_DRAIN_SECONDS = 5.0  # how long the exit waits for the server's last answers to reach the client


def option(argv: list[str], flag: str) -> str | None:
    for index, argument in enumerate(argv):
        if argument == flag and index + 1 < len(argv):
            return argv[index + 1]
        if argument.startswith(flag + "="):
            return argument.split("=", 1)[1]
    return None


def toolset_from(argv: list[str]) -> str:
    """The toolset ``graphmem serve`` will use: --toolset, else GRAPHMEM_TOOLSET, else core."""
    return option(argv, "--toolset") or os.environ.get("GRAPHMEM_TOOLSET", "core")


def applies(argv: list[str]) -> bool:
    """``graphmem serve`` on stdio, with answers on file for its configuration."""
    if not argv or argv[0] != "serve" or os.environ.get("GRAPHMEM_FRONT_DOOR", "1") == "0":
        return False
    if "-h" in argv or "--help" in argv or (option(argv, "--transport") or "stdio") != "stdio":
        return False
    if os.environ.get("GRAPHMEM_VERIFIER_KEYS_FILE"):
        return False  # verify_fact is listed: not in the file
    return toolset_from(argv) in ("core", "full")


class FirstContact:
    """The answers on file for one toolset: ``result`` gives what the real server would
    answer to ``initialize``, ``server/discover`` and a first ``tools/list``, else None."""

    def __init__(self, answers: dict[str, Any], toolset: str) -> None:
        self._answers = answers
        self._toolset = toolset

    @classmethod
    def load(cls, toolset: str) -> FirstContact | None:
        if toolset not in ("core", "full") or not FIRST_CONTACT.is_file():
            return None
        return cls(json.loads(FIRST_CONTACT.read_text()), toolset)

    def result(self, method: Any, params: Any) -> dict[str, Any] | None:
        if method == "initialize":
            return self._initialize(params)
        if method == "server/discover":
            return self._answers["discover"]
        if method == "tools/list" and isinstance(params, dict) and not params.get("cursor"):
            return self._tools(params)
        return None

    @property
    def session_versions(self) -> list[str]:
        """The protocol versions that open a session with ``initialize``."""
        return self._answers["protocol_versions"]

    def is_modern(self, version: Any) -> bool:
        return version in self._answers["modern_versions"]

    def _tools(self, params: dict[str, Any]) -> dict[str, Any]:
        tools = self._answers["tools"]
        if self._toolset != "full":
            by_name = {tool["name"]: tool for tool in tools}
            tools = [by_name[name] for name in self._answers["core"]]
        if self.is_modern((params.get("_meta") or {}).get(VERSION_META)):
            return {**self._answers["modern_list"], "tools": tools}  # stateless: a cached result
        return {"tools": tools}

    def _initialize(self, params: Any) -> dict[str, Any]:
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        versions = self._answers["protocol_versions"]
        version = asked if asked in versions else versions[-1]
        return {"protocolVersion": version, **self._answers["initialize"]}


class FrontDoor:
    """The relay; ``client_in``/``client_out`` are the client's ends, ``server_in``/
    ``server_out`` the pipes the real server reads and writes."""

    def __init__(
        self,
        first_contact: FirstContact,
        client_in: BinaryIO,
        client_out: BinaryIO,
        server_in: BinaryIO,
        server_out: BinaryIO,
    ) -> None:
        self._first_contact = first_contact
        self._client_in, self._client_out = client_in, client_out
        self._server_in, self._server_out = server_in, server_out
        self._to_client = threading.Lock()
        self._outbound = threading.Thread(target=self._relay_answers, daemon=True)

    def start(self) -> None:
        threading.Thread(target=self._relay_requests, daemon=True).start()
        self._outbound.start()

    def drain(self, timeout: float = _DRAIN_SECONDS) -> None:
        """Wait until the server's last lines have reached the client (its output is closed)."""
        self._outbound.join(timeout)

    # client -> server
    def _relay_requests(self) -> None:
        try:
            for line in self._client_in:
                forward = self._answered(line)
                if forward:
                    self._server_in.write(forward)
                    self._server_in.flush()
        except (OSError, ValueError):
            pass  # the server has gone: nothing left to relay to
        finally:
            with contextlib.suppress(OSError):  # the client hung up: the server sees its end
                self._server_in.close()

    def _answered(self, line: bytes) -> bytes | None:
        """Answer what the file can answer; the line to pass on to the server, if any."""
        if not any(method in line for method in _ANSWERED):
            return line
        try:
            message = json.loads(line)
        except ValueError:
            return line  # the server reports the parse error itself
        if not isinstance(message, dict) or "id" not in message:
            return line  # notifications and responses pass on in order
        method, params = message.get("method"), message.get("params") or {}
        result = self._first_contact.result(method, params)
        if result is None:
            return line
        self._answer(message["id"], result)
        if method == "initialize":
            return _line({**message, "id": REPLAY_ID})  # the server's session starts too
        return None

    def _answer(self, request_id: Any, result: dict[str, Any]) -> None:
        self._write_client(_line({"jsonrpc": "2.0", "id": request_id, "result": result}))

    # server -> client
    def _relay_answers(self) -> None:
        for line in self._server_out:
            if _is_replay_answer(line):
                continue  # the answer to the client's initialize went out already
            if line.lstrip().startswith(b"{"):
                self._write_client(line)
            else:
                sys.stderr.buffer.write(b"graphmem: not sent to the client: " + line)
                sys.stderr.flush()

    def _write_client(self, line: bytes) -> None:
        with self._to_client:
            self._client_out.write(line)
            self._client_out.flush()


def _is_replay_answer(line: bytes) -> bool:
    if REPLAY_ID.encode() not in line:
        return False
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("id") == REPLAY_ID and "method" not in message


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def open_front_door(argv: list[str]) -> bool:
    """Put the relay in front of this process's stdin and stdout, if it applies."""
    first_contact = FirstContact.load(toolset_from(argv)) if applies(argv) else None
    if first_contact is None:
        return False
    client_in = os.fdopen(os.dup(0), "rb")
    client_out = os.fdopen(os.dup(1), "wb")
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    os.dup2(requests_read, 0)
    os.dup2(answers_write, 1)
    os.close(requests_read)
    os.close(answers_write)
    door = FrontDoor(
        first_contact,
        client_in,
        client_out,
        os.fdopen(requests_write, "wb"),
        os.fdopen(answers_read, "rb"),
    )
    door.start()

    def close_output_and_drain() -> None:
        sys.stdout.flush()
        os.close(1)  # the relay sees the end of the server's output once it has copied it
        door.drain()

    atexit.register(close_output_and_drain)
    return True


def live_answers() -> dict[str, Any]:
    """What the real server answers (front door off, no database reachable): the content of
    first_contact.json."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    handshake, modern = list(HANDSHAKE_PROTOCOL_VERSIONS), list(MODERN_PROTOCOL_VERSIONS)
    hello = {"protocolVersion": handshake[-1], "capabilities": {}}
    hello["clientInfo"] = {"name": "graphmem-front-door", "version": "1"}
    meta = {VERSION_META: modern[-1], "io.modelcontextprotocol/clientCapabilities": {}}
    meta["io.modelcontextprotocol/clientInfo"] = {"name": "graphmem-front-door", "version": "1"}
    initialize, listed = _ask_live_server("full", [("initialize", hello), ("tools/list", {})])
    discover, modern_list = _ask_live_server(
        "full", [("server/discover", {"_meta": meta}), ("tools/list", {"_meta": meta})]
    )
    _, core = _ask_live_server("core", [("initialize", hello), ("tools/list", {})])
    return {
        "protocol_versions": handshake,
        "initialize": {k: v for k, v in initialize.items() if k != "protocolVersion"},
        "modern_versions": modern,
        "discover": discover,
        "modern_list": {k: v for k, v in modern_list.items() if k != "tools"},
        "core": [tool["name"] for tool in core["tools"]],  # the same as in full, in this order
        "tools": listed["tools"],
    }


def _ask_live_server(toolset: str, requests: list[tuple[str, Any]]) -> list[Any]:
    """The results a ``graphmem serve`` without the front door gives ``requests`` in turn."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRAPHMEM_", "NEO4J_"))}
    env |= {"GRAPHMEM_FRONT_DOOR": "0", "GRAPHMEM_TOOLSET": toolset}
    env |= {"NEO4J_URI": "bolt://127.0.0.1:9"}  # nothing answers there: no database is touched
    results = []
    with subprocess.Popen(
        [sys.executable, "-m", "graphmem", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        for number, (method, params) in enumerate(requests):
            request = {"jsonrpc": "2.0", "id": number, "method": method, "params": params}
            server.stdin.write(_line(request))
            server.stdin.flush()
            results.append(json.loads(server.stdout.readline())["result"])
            if method == "initialize":
                server.stdin.write(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        server.stdin.close()
        server.wait(timeout=30)
    return results


def main() -> None:
    """Print first_contact.json as the live server answers (a test compares the two)."""
    print(json.dumps(live_answers(), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
