"""The HTTP front door: first contact answered while the server loads, as the server answers
it, and sessions that carry on in the server (no database: none is reachable)."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp
import pytest

from graphmem.app.frontdoor import FIRST_CONTACT, FirstContact
from graphmem.app.http_front_door import HttpFrontDoor, open_listener
from graphmem.app.tokens import issue_token
from tests.app.helpers import (
    GRAPHMEM,
    INITIALIZE_MESSAGE,
    PLAIN,
    Answer,
    clean_env,
    post,
    wait_for_port,
)
from tests.neo4j_endpoint import free_port

MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "graphmem-tests", "version": "1"},
}


def spawn(port: int, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*GRAPHMEM, "serve", "--transport", "http", "--port", str(port)],
        env=clean_env(NEO4J_URI="bolt://127.0.0.1:9", GRAPHMEM_START_WAIT="1", **env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_the_server(port: int) -> None:
    """Until the real server answers (a request the door never answers: no session)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if post(port, {"jsonrpc": "2.0", "id": 0, "method": "ping"}).by_server:
            return
    raise AssertionError("the server never took over")


@pytest.fixture
def booting() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    process = spawn(port)
    try:
        wait_for_port(port, process)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def legacy_first_contact(port: int) -> list[Answer]:
    opened = post(port, INITIALIZE_MESSAGE)
    session = opened.headers["mcp-session-id"]
    version = {"mcp_protocol_version": "2025-06-18", "mcp_session_id": session}
    initialized = post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **version)
    listed = post(port, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, **version)
    pinged = post(port, {"jsonrpc": "2.0", "id": 3, "method": "ping"}, **version)
    return [opened, initialized, listed, pinged]


def modern_first_contact(port: int) -> list[Answer]:
    return [
        post(
            port,
            {"jsonrpc": "2.0", "id": number, "method": method, "params": {"_meta": META}},
            mcp_protocol_version=MODERN,
            mcp_method=method,
        )
        for number, method in ((1, "server/discover"), (2, "tools/list"))
    ]


def test_the_door_answers_first_contact_as_the_server_does(
    booting: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, _ = booting
    door_legacy, door_modern = legacy_first_contact(port), modern_first_contact(port)
    assert not any(answer.by_server for answer in door_legacy + door_modern)  # still loading
    wait_for_the_server(port)
    server_legacy, server_modern = legacy_first_contact(port), modern_first_contact(port)
    assert all(answer.by_server for answer in server_legacy + server_modern)
    for door, server in zip(door_legacy + door_modern, server_legacy + server_modern, strict=True):
        assert door.status == server.status
        assert door.headers.get("content-type") == server.headers.get("content-type")
        if server.body:
            assert door.message() == server.message()


def test_a_session_the_door_opened_carries_on_in_the_server(
    booting: tuple[int, subprocess.Popen[bytes]],
) -> None:
    port, _ = booting
    opened = legacy_first_contact(port)[0]
    session = opened.headers["mcp-session-id"]
    headers = {"mcp_protocol_version": "2025-06-18", "mcp_session_id": session}
    call = {"name": "current_state", "arguments": {"state_key": "k"}}
    message = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": call}
    called = post(port, message, **headers)
    assert called.by_server and called.headers["mcp-session-id"] == session  # the door's id
    payload = json.loads(called.message()["result"]["content"][0]["text"])
    assert payload["error"] == "starting"  # the database never answers here
    listed = post(port, {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}, **headers)
    assert listed.by_server and listed.message()["result"] == opened_tools()
    ended = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    ended.request("DELETE", "/mcp", headers={"mcp-session-id": session, **PLAIN})
    assert ended.getresponse().status == 200
    gone = post(port, {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, **headers)
    assert gone.status == 404  # ended in the server, and the door's id with it


def opened_tools() -> dict[str, Any]:
    answers = FirstContact.load("core")
    assert answers is not None
    result = answers.result("tools/list", {})
    assert result is not None
    return result


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_sdk_client_attaches_at_once_and_calls_after_the_hand_over(mode: str) -> None:
    port = free_port()
    process = spawn(port)
    try:
        wait_for_port(port, process)
        async with mcp.Client(f"http://127.0.0.1:{port}/mcp", mode=mode) as client:
            tools = await client.list_tools()
            assert [tool["name"] for tool in opened_tools()["tools"]] == [
                tool.name for tool in tools.tools
            ]
            called = await client.call_tool("current_state", {"state_key": "k"})
            assert called.is_error
            assert json.loads(called.content[0].text)["error"] == "starting"  # type: ignore[union-attr]
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_with_credentials_the_door_answers_only_a_read_token_and_keeps_sessions_apart(
    tmp_path: Path,
) -> None:
    tokens = tmp_path / "tokens.json"
    reader, _ = issue_token(tokens, "tenant-a", ["read", "write"])
    other, _ = issue_token(tokens, "tenant-a", ["read", "write"])
    writer, _ = issue_token(tokens, "tenant-a", ["write"])
    port = free_port()
    process = spawn(port, GRAPHMEM_TOKENS_FILE=str(tokens))
    try:
        wait_for_port(port, process)
        opened = post(port, INITIALIZE_MESSAGE, authorization=f"Bearer {reader}")
        assert opened.status == 200 and not opened.by_server
        session = opened.headers["mcp-session-id"]
        relayed = post(port, INITIALIZE_MESSAGE, authorization=f"Bearer {writer}")
        assert relayed.by_server  # no read scope: the door does not vouch for it
        for presented in ("", "Bearer gm_wrong", f"Bearer  {reader}"):
            refused = post(port, INITIALIZE_MESSAGE, authorization=presented)
            assert refused.status == 401 and refused.by_server, presented
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        in_session = {"mcp_protocol_version": "2025-06-18", "mcp_session_id": session}
        taken = post(port, listing, authorization=f"Bearer {other}", **in_session)
        assert taken.status == 404  # another caller cannot use the session the door opened
        mine = post(port, listing, authorization=f"Bearer {reader}", **in_session)
        assert mine.status == 200 and mine.by_server and mine.headers["mcp-session-id"] == session
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_door_keeps_the_servers_body_limit() -> None:
    port = free_port()
    process = spawn(port, GRAPHMEM_MAX_REQUEST_BYTES="2048")
    try:
        wait_for_port(port, process)
        padded = {
            **INITIALIZE_MESSAGE,
            "params": {**INITIALIZE_MESSAGE["params"], "pad": "x" * 5000},
        }
        answer = post(port, padded)
        assert answer.status == 413 and answer.by_server
    finally:
        process.terminate()
        process.wait(timeout=30)


def _raw(body: bytes, *headers: str, line: str = "POST /mcp HTTP/1.1") -> bytes:
    sent = [line, *headers, f"content-length: {len(body)}", "", ""]
    return "\r\n".join(sent).encode() + body


PLAIN_HEADERS = (
    "host: 127.0.0.1:{port}",
    "content-type: application/json",
    "accept: application/json, text/event-stream",
)


def test_what_the_door_does_not_answer_waits_and_is_relayed_whole() -> None:
    """In process: requests the server might answer otherwise wait for the hand over, then
    reach whoever listens on the socket, byte for byte."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    answers = FirstContact(json.loads(FIRST_CONTACT.read_text()), "core")
    door = HttpFrontDoor(listener, "127.0.0.1", answers, tokens=None, max_body=1024)
    door.start()
    plain = [header.format(port=port) for header in PLAIN_HEADERS]
    hello = json.dumps(INITIALIZE_MESSAGE).encode()
    cases = {
        "origin": _raw(hello, *plain, "origin: http://evil.example"),
        "host": _raw(hello, *plain[1:], "host: evil.example"),
        "space before colon": _raw(hello, *plain, "x-thing : 1"),
        "http version": _raw(hello, *plain, line="POST /mcp XTTP/9"),
        "null id": _raw(json.dumps({**INITIALIZE_MESSAGE, "id": None}).encode(), *plain),
        "no params": _raw(b'{"jsonrpc":"2.0","id":1,"method":"initialize"}', *plain),
        "too large": _raw(hello + b" " * 2000, *plain),
        "expect": _raw(hello, *plain, "expect: 100-continue"),
        "unknown session": _raw(
            hello.replace(b"initialize", b"tools/list"), *plain, "mcp-session-id: x"
        ),
    }
    outcomes: dict[str, bytes] = {}

    def ask(name: str, request: bytes) -> None:
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(request)
            connection.shutdown(socket.SHUT_WR)
            outcomes[name] = b"".join(iter(lambda: connection.recv(65536), b""))

    waiting = [threading.Thread(target=ask, args=case) for case in cases.items()]
    for thread in waiting:
        thread.start()
    time.sleep(0.5)
    assert outcomes == {}  # nobody answered: they wait for the server
    listening = door.hand_over()
    seen: list[bytes] = []
    for _ in cases:  # the "server": answers 418 with what it received
        connection, _ = listening.accept()
        with connection:
            request = b"".join(iter(lambda c=connection: c.recv(65536), b""))
            seen.append(request)
            connection.sendall(b"HTTP/1.1 418 Teapot\r\ncontent-length: %d\r\n\r\n" % len(request))
            connection.sendall(request)
    for thread in waiting:
        thread.join(10)
    assert sorted(seen) == sorted(cases.values())  # relayed whole
    for name, request in cases.items():
        assert outcomes[name].startswith(b"HTTP/1.1 418"), name
        assert outcomes[name].endswith(request), name
    listening.close()


async def test_the_server_answers_at_once_on_connections_from_the_doors_socket() -> None:
    """asyncio turns Nagle off only on sockets whose protocol is TCP by number; the door's
    listener names it, so no answer waits for the client's delayed ACK (that cost ~40 ms a
    call when the listener came from socket.create_server)."""
    listener = open_listener("127.0.0.1", 0)
    nodelay: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nodelay.set_result(
            writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        )
        writer.close()

    server = await asyncio.start_server(accepted, sock=listener)
    async with server:
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        assert await asyncio.wait_for(nodelay, 10) != 0
        writer.close()
