"""The stdio front door (graphmem/app/frontdoor.py): first contact answered from
first_contact.json while the server loads, then a transparent relay."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, BinaryIO

import mcp
import pytest
from mcp.client.stdio import stdio_client

from graphmem.app.frontdoor import (
    FIRST_CONTACT,
    REPLAY_ID,
    FirstContact,
    FrontDoor,
    applies,
    live_answers,
)
from tests.app.helpers import GRAPHMEM, INITIALIZE_MESSAGE, clean_env

UNREACHABLE = "bolt://127.0.0.1:9"  # no database: first contact must not need one


def test_the_answers_on_file_are_the_live_servers() -> None:
    """Regenerate with: python -m graphmem.app.frontdoor > graphmem/app/first_contact.json"""
    assert json.loads(FIRST_CONTACT.read_text()) == live_answers()


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["serve"], {}, True),
        (["serve", "--toolset", "full"], {}, True),
        (["serve", "--transport", "http"], {}, False),
        (["serve", "--transport=stdio"], {}, True),
        (["serve"], {"GRAPHMEM_VERIFIER_KEYS_FILE": "/keys.json"}, False),  # verify_fact
        (["serve"], {"GRAPHMEM_FRONT_DOOR": "0"}, False),
        (["neo4j", "start"], {}, False),
        (["serve", "--help"], {}, False),
    ],
)
def test_it_opens_only_for_stdio_configurations_on_file(
    argv: list[str], env: dict[str, str], expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GRAPHMEM_VERIFIER_KEYS_FILE", "GRAPHMEM_FRONT_DOOR", "GRAPHMEM_TOOLSET"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert applies(argv) is expected


def _serve(**env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*GRAPHMEM, "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(NEO4J_URI=UNREACHABLE, GRAPHMEM_START_WAIT="1", **env),
    )


def _send(process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def _receive(process: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert process.stdout is not None
    return json.loads(process.stdout.readline())


def test_a_classic_session_is_answered_then_relayed() -> None:
    """initialize and tools/list from the file; the server's own session starts too, so a
    later request is the real server's answer, and nothing of the replay reaches the client."""
    answers = json.loads(FIRST_CONTACT.read_text())
    server = _serve(GRAPHMEM_TOOLSET="core")
    try:
        _send(server, INITIALIZE_MESSAGE)
        hello = _receive(server)
        assert hello["id"] == 1
        assert hello["result"]["protocolVersion"] == "2025-06-18"
        assert hello["result"]["serverInfo"]["name"] == "graphmem"
        _send(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(server, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listed = _receive(server)
        assert [tool["name"] for tool in listed["result"]["tools"]] == answers["core"]
        _send(server, {"jsonrpc": "2.0", "id": 3, "method": "resources/list"})
        resources = _receive(server)  # only the real server answers this
        assert resources["id"] == 3 and resources["result"]["resources"]
        _send(server, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "current_state", "arguments": {"state_key": "k"}}})  # fmt: skip
        waited = _receive(server)
        assert waited["id"] == 4 and waited["result"]["isError"] is True
        assert json.loads(waited["result"]["content"][0]["text"])["error"] == "starting"
    finally:
        assert server.stdin is not None
        server.stdin.close()
        assert server.wait(timeout=60) == 0


async def test_a_modern_client_lists_through_the_front_door() -> None:
    """The SDK's client speaks the stateless protocol (server/discover, no initialize)."""
    env = clean_env(NEO4J_URI=UNREACHABLE, GRAPHMEM_TOOLSET="full")
    parameters = mcp.StdioServerParameters(
        command=GRAPHMEM[0], args=[*GRAPHMEM[1:], "serve"], env=env
    )
    with open(os.devnull, "w") as quiet:  # noqa: ASYNC230 - the server's log, not read
        async with mcp.Client(stdio_client(parameters, errlog=quiet)) as client:
            listed = await client.list_tools()
            templates = await client.list_resource_templates()  # from the real server
    assert len(listed.tools) == len(json.loads(FIRST_CONTACT.read_text())["tools"])
    assert templates.resource_templates


class _Pipe:
    def __init__(self) -> None:
        read, write = os.pipe()
        self.read: BinaryIO = os.fdopen(read, "rb")
        self.write: BinaryIO = os.fdopen(write, "wb")


def test_the_relay_drops_the_replay_answer_and_stray_lines(
    capfd: pytest.CaptureFixture[str],
) -> None:
    client_in, client_out, server_in, server_out = _Pipe(), _Pipe(), _Pipe(), _Pipe()
    answers = FirstContact(json.loads(FIRST_CONTACT.read_text()), "core")
    door = FrontDoor(answers, client_in.read, client_out.write, server_in.write, server_out.read)
    door.start()
    client_in.write.write(json.dumps(INITIALIZE_MESSAGE).encode() + b"\n")
    client_in.write.flush()
    assert json.loads(client_out.read.readline())["id"] == 1  # answered at once
    replayed = json.loads(server_in.read.readline())
    assert replayed["id"] == REPLAY_ID and replayed["method"] == "initialize"
    server_out.write.write(json.dumps({"jsonrpc": "2.0", "id": REPLAY_ID, "result": {}}).encode())
    server_out.write.write(b"\nsomething printed by accident\n")
    server_out.write.write(b'{"jsonrpc":"2.0","id":7,"result":{}}\n')
    server_out.write.close()
    door.drain()
    client_out.write.close()
    relayed = client_out.read.read().decode()
    assert relayed == '{"jsonrpc":"2.0","id":7,"result":{}}\n'  # only the real answer
    assert "printed by accident" in capfd.readouterr().err
    client_in.write.close()
    assert server_in.read.read() == b""  # the relay saw the end and closed the server's input
