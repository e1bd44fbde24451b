"""The compose stack on the offline images (docker/build-images.sh), on the host network: up,
record_fact and current_state through the official MCP SDK client with a bearer token, refused
without it, Neo4j Browser answers, and `down -v` leaves nothing behind.

Runs when GRAPHMEM_CONTAINER_TESTS=1 (docker/container-tests.sh sets it), else skips."""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from graphmem.localdb.lockfile import load_lock
from tests.app.helpers import INITIALIZE
from tests.neo4j_endpoint import free_port

ROOT = Path(__file__).resolve().parents[2]
FILES = ["-f", str(ROOT / "docker-compose.yml"), "-f", str(ROOT / "docker" / "compose.offline.yml")]
UP_TIMEOUT = 240.0
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("GRAPHMEM_CONTAINER_TESTS") != "1",
        reason="the compose test runs from docker/container-tests.sh (GRAPHMEM_CONTAINER_TESTS=1)",
    ),
    pytest.mark.timeout(900),  # the first test brings the stack up, the last takes it down
]


@dataclass(frozen=True)
class Stack:
    project: str
    token: str
    mcp_url: str
    browser_url: str
    env: dict[str, str]
    answered_after: float  # seconds from `up` to the first answered MCP call


def _compose(stack_env: dict[str, str], project: str, *args: str) -> None:
    command = ["docker-compose", "-p", project, *FILES, *args]
    subprocess.run(command, env=stack_env, check=True, capture_output=True, timeout=300)


def _status(url: str, headers: dict[str, str] | None = None, body: bytes | None = None) -> int:
    request = urllib.request.Request(url, data=body, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 (loopback)
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    token = secrets.token_urlsafe(24)
    bolt, neo4j_http, port = free_port(), free_port(), free_port()
    project = f"graphmem-e2e-{secrets.token_hex(4)}"
    env = {
        **os.environ,
        "NEO4J_PASSWORD": secrets.token_hex(12),
        "GRAPHMEM_HTTP_TOKEN_SHA256": hashlib.sha256(token.encode()).hexdigest(),
        "GRAPHMEM_TOOLSET": "core",
        "GRAPHMEM_BOLT_PORT": str(bolt),
        "GRAPHMEM_NEO4J_HTTP_PORT": str(neo4j_http),
        "GRAPHMEM_PORT": str(port),
        "GRAPHMEM_NEO4J_IMAGE": f"graphmem/neo4j:{load_lock().neo4j_version}",
    }
    mcp_url = f"http://127.0.0.1:{port}/mcp"
    began = time.monotonic()
    try:
        _compose(env, project, "up", "-d", "--no-build")
        signed = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
        while _status(mcp_url, signed, INITIALIZE) != 200:  # an answered MCP initialize
            assert time.monotonic() - began < UP_TIMEOUT, "graphmem did not answer in time"
            time.sleep(1)
        answered = time.monotonic() - began
        print(f"compose: up to first answered call in {answered:.1f} s", file=sys.stderr)
        yield Stack(project, token, mcp_url, f"http://127.0.0.1:{neo4j_http}", env, answered)
    finally:
        _compose(env, project, "down", "--volumes", "--remove-orphans")


async def test_record_fact_and_current_state_through_the_sdk_client(stack: Stack) -> None:
    headers = {"Authorization": f"Bearer {stack.token}"}
    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(stack.mcp_url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        written = await session.call_tool(
            "record_fact", {"project": "compose", "key": "db.engine", "value": "postgres"}
        )
        assert not written.is_error, written.content
        state = await session.call_tool("current_state", {"state_key": "db.engine"})
        assert state.structured_content is not None
        assert state.structured_content["status"] == "current"
        assert state.structured_content["answer"]["value"] == "postgres"


def test_a_call_without_the_token_is_refused(stack: Stack) -> None:
    assert _status(stack.mcp_url, MCP_HEADERS, INITIALIZE) == 401
    wrong = {**MCP_HEADERS, "Authorization": "Bearer not-the-token"}
    assert _status(stack.mcp_url, wrong, INITIALIZE) == 401


def test_neo4j_browser_answers(stack: Stack) -> None:
    browser = f"{stack.browser_url}/browser/"
    with urllib.request.urlopen(browser, timeout=10) as response:  # noqa: S310 (loopback)
        assert response.status == 200
        assert b"Neo4j Browser" in response.read()


def test_down_with_volumes_leaves_nothing_behind(stack: Stack) -> None:
    _compose(stack.env, stack.project, "down", "--volumes", "--remove-orphans")
    label = f"label=com.docker.compose.project={stack.project}"
    for kind in (["ps", "-aq"], ["volume", "ls", "-q"], ["network", "ls", "-q"]):
        left = subprocess.run(
            ["docker", *kind, "--filter", label], capture_output=True, text=True, check=True
        )
        assert left.stdout.strip() == "", f"docker {' '.join(kind)} still lists {left.stdout}"
    assert _status(stack.mcp_url) == 0  # nothing listens any more
