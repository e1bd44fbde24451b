"""First contact without a stall: `graphmem serve` answers the handshake and tools/list while
its database is still being prepared; a call meanwhile waits up to GRAPHMEM_START_WAIT (with
progress notifications) and then gets a retryable `starting` error; a database that cannot come
up is reported by every call with a code and a plain reason, the detail going to the log."""

from __future__ import annotations

import contextlib
import json
import select
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import mcp
import pytest
from mcp.client.stdio import stdio_client

from graphmem.app.catalogue import tools_for
from tests.app.helpers import GRAPHMEM, INITIALIZE_MESSAGE, clean_env, run_cli
from tests.neo4j_endpoint import Endpoint, free_port

READY_WITHIN = 240.0  # a managed Neo4j start on a loaded 2-core machine


@contextlib.asynccontextmanager
async def _stdio(env: dict[str, str], stderr: Path) -> AsyncIterator[mcp.Client]:
    """The official SDK client on `graphmem serve` over stdio, its stderr kept in a file."""
    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env
    )
    with stderr.open("w") as log:
        async with mcp.Client(stdio_client(parameters, errlog=log)) as client:
            yield client


def _error(result: Any) -> dict[str, Any]:
    assert result.is_error
    return json.loads(result.content[0].text)


@pytest.mark.managed
async def test_a_cold_start_answers_at_once_then_serves(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    local = neo4j_endpoint.local_settings
    if local is None:
        pytest.skip("needs the jars of the managed local Neo4j")
    env = clean_env(
        GRAPHMEM_DATA_DIR=str(tmp_path / "data"),  # a data folder never started
        GRAPHMEM_CACHE_DIR=str(local.cache_dir),
        GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HEAP="512m",
        GRAPHMEM_TENANT=f"e2e-{uuid.uuid4().hex[:10]}",
        GRAPHMEM_START_WAIT="0.5",
    )
    notes: list[tuple[float, str | None]] = []

    async def heard(progress: float, total: float | None, message: str | None) -> None:
        notes.append((progress, message))

    try:
        async with _stdio(env, tmp_path / "stderr") as client:
            tools = await client.list_tools()  # answered while Neo4j is still starting
            assert {tool.name for tool in tools.tools} == {spec.name for spec in tools_for("core")}
            early = await client.call_tool(
                "current_state", {"state_key": "db.engine"}, progress_callback=heard
            )
            payload = _error(early)
            assert payload["error"] == "starting" and payload["retryable"] is True
            assert "retry" in payload["message"].lower()
            assert notes, "no progress notification while the call waited"
            assert all(message and message.startswith("waiting") for _, message in notes)
            began = time.monotonic()
            while True:
                written = await client.call_tool(
                    "record_fact", {"project": "e2e", "key": "db.engine", "value": "postgres"}
                )
                if not written.is_error:
                    break
                assert _error(written)["error"] == "starting"
                assert time.monotonic() - began < READY_WITHIN, "the database never came up"
            state = await client.call_tool("current_state", {"state_key": "db.engine"})
            assert state.structured_content is not None
            assert state.structured_content["answer"]["value"] == "postgres"
    finally:
        run_cli("neo4j", "stop", env=env)


@pytest.mark.skipif(shutil.which("java") is None, reason="the port check follows the Java check")
async def test_a_database_that_cannot_start_is_reported_by_every_call(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = clean_env(
            GRAPHMEM_DATA_DIR=str(tmp_path / "data"),
            GRAPHMEM_LOCAL_BOLT_PORT=str(port),
            GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        )
        async with _stdio(env, tmp_path / "stderr") as client:
            assert (await client.list_tools()).tools
            for name, arguments in (
                ("current_state", {"state_key": "db.engine"}),
                ("record_fact", {"project": "p", "key": "k", "value": 1}),
            ):
                payload = _error(await client.call_tool(name, arguments))
                assert payload["error"] == "store_unavailable"
                assert payload["retryable"] is False
                assert "a port it needs is taken" in payload["message"]
                assert str(port) not in payload["message"] and "/" not in payload["message"]
            with pytest.raises(Exception, match="store_unavailable") as refused:
                await client.read_resource("graphmem://stats")
            assert str(port) not in str(refused.value)
    log = (tmp_path / "stderr").read_text()
    assert f"{port}" in log and "Traceback" not in log  # the operator's detail is in the log


async def test_a_neo4j_that_does_not_answer_yet_is_waited_for(tmp_path: Path) -> None:
    """An external database that does not answer at start may later: calls say `starting`
    (retryable) while graphmem keeps trying; the address stays in the log."""
    uri = f"bolt://127.0.0.1:{free_port()}"
    env = clean_env(
        NEO4J_URI=uri, NEO4J_PASSWORD="x" * 8, GRAPHMEM_CONNECT_TIMEOUT="1", GRAPHMEM_START_WAIT="1"
    )
    async with _stdio(env, tmp_path / "stderr") as client:
        began = time.monotonic()
        while True:
            payload = _error(await client.call_tool("current_state", {"state_key": "k"}))
            assert payload["error"] == "starting" and payload["retryable"] is True
            assert "127.0.0.1" not in payload["message"]
            if "waiting for the database to answer" in payload["message"]:
                break
            assert time.monotonic() - began < 60, payload
    assert f"cannot reach Neo4j at {uri}" in (tmp_path / "stderr").read_text()


async def test_wrong_credentials_are_reported_by_every_call(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    env = clean_env(
        NEO4J_URI=neo4j_endpoint.uri,
        NEO4J_USER=neo4j_endpoint.user,
        NEO4J_PASSWORD="definitely-wrong",
        GRAPHMEM_CONNECT_TIMEOUT="5",
    )
    async with _stdio(env, tmp_path / "stderr") as client:
        payload = _error(await client.call_tool("current_state", {"state_key": "k"}))
    assert payload["error"] == "store_unavailable"
    assert "cannot sign in" in payload["message"] and neo4j_endpoint.user not in payload["message"]
    log = (tmp_path / "stderr").read_text()
    assert "refused the credentials" in log and "NEO4J_PASSWORD" in log


def test_the_stdio_server_writes_nothing_but_protocol_to_stdout(tmp_path: Path) -> None:
    """The background start logs to stderr only: stdout carries JSON-RPC and nothing else."""
    env = clean_env(
        NEO4J_URI=f"bolt://127.0.0.1:{free_port()}",
        GRAPHMEM_CONNECT_TIMEOUT="1",
        GRAPHMEM_START_WAIT="8",  # the first connect fails (and is logged) within it
    )
    messages = [
        INITIALIZE_MESSAGE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "current_state", "arguments": {"state_key": "k"}},
        },
    ]
    process = subprocess.Popen(
        [*GRAPHMEM, "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(json.dumps(message) + "\n" for message in messages))
    process.stdin.flush()
    lines = []
    deadline = time.monotonic() + 60
    while not lines or json.loads(lines[-1]).get("id") != 2:  # until the call is answered
        ready, _, _ = select.select([process.stdout], [], [], deadline - time.monotonic())
        assert ready, "the server did not answer the call in time"
        line = process.stdout.readline()
        assert line, "the server closed stdout before answering"
        lines.append(line)
    rest, stderr = process.communicate(timeout=60)  # closes stdin: the server ends
    lines += [line for line in rest.splitlines() if line.strip()]
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in lines)
    assert "cannot reach Neo4j" in stderr
