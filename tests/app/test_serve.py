"""`graphmem serve` as a real process, called by the official MCP SDK client."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator

import mcp
import pytest

from graphmem.app.catalogue import tools_for
from tests.app.helpers import GRAPHMEM, HttpServer, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint


@pytest.fixture
def tenant_env(neo4j_endpoint: Endpoint) -> dict[str, str]:
    return clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=f"e2e-{uuid.uuid4().hex[:10]}")


@pytest.fixture
def http_server(tenant_env: dict[str, str]) -> Iterator[HttpServer]:
    # a pipe read at the end (communicate): these tests make a handful of calls, far from
    # filling it with log lines
    with serving_http(tenant_env, stderr=subprocess.PIPE) as server:
        yield server


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_tools_over_streamable_http(http_server: HttpServer, mode: str) -> None:
    url = http_server.url
    async with mcp.Client(url, mode=mode) as client:
        tools = await client.list_tools()
        assert {tool.name for tool in tools.tools} == {spec.name for spec in tools_for("core")}
        written = await client.call_tool(
            "record_fact", {"project": "e2e", "key": f"k-{mode}", "value": {"mode": mode}}
        )
        assert not written.is_error
        state = await client.call_tool("current_state", {"state_key": f"k-{mode}"})
        assert state.structured_content is not None
        assert state.structured_content["status"] == "current"
        assert state.structured_content["answer"]["value"] == {"mode": mode}
        refused = await client.call_tool("current_state", {"state_key": ""})
        assert refused.is_error
        payload = json.loads(refused.content[0].text)  # type: ignore[union-attr]
        assert payload["error"] == "invalid_argument" and payload["field"] == "state_key"


def test_sigterm_shuts_the_http_server_down_cleanly(http_server: HttpServer) -> None:
    process = http_server.process
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "graphmem stopped" in stderr
    assert "Traceback" not in stderr


async def test_tools_over_stdio(tenant_env: dict[str, str]) -> None:
    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=tenant_env
    )
    async with mcp.Client(parameters) as client:
        written = await client.call_tool(
            "record_fact", {"project": "e2e", "key": "stdio", "value": [1, 2, 3], "detail": "full"}
        )
        assert not written.is_error
        assert written.structured_content is not None
        assert written.structured_content["record"]["value"] == [1, 2, 3]


def test_sigterm_stops_a_stdio_server(tenant_env: dict[str, str]) -> None:
    process = subprocess.Popen(
        [*GRAPHMEM, "serve"],
        env=tenant_env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    assert process.stderr is not None
    for line in process.stderr:  # wait until it serves
        if "schema applied" in line or time.monotonic() > deadline:
            break
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "graphmem stopped" in stderr


@pytest.mark.managed
async def test_without_neo4j_uri_serve_uses_the_managed_local_server(
    neo4j_endpoint: Endpoint,
) -> None:
    local = neo4j_endpoint.local_settings
    if local is None:
        pytest.skip("the tests run against a Neo4j that graphmem does not manage")
    env = clean_env(
        GRAPHMEM_DATA_DIR=str(local.data_dir),
        GRAPHMEM_CACHE_DIR=str(local.cache_dir),
        GRAPHMEM_LOCAL_BOLT_PORT=str(local.local_bolt_port),
        GRAPHMEM_LOCAL_HTTP_PORT=str(local.local_http_port),
        GRAPHMEM_TENANT=f"e2e-{uuid.uuid4().hex[:10]}",
    )
    with tempfile.TemporaryFile("w+") as log, serving_http(env, stderr=log) as server:
        async with mcp.Client(server.url) as client:
            state = await client.call_tool("current_state", {"state_key": "anything"})
            assert state.structured_content is not None
            assert state.structured_content["status"] == "not_found"
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=30)
        log.seek(0)
        stderr = log.read()
    assert f"using running local Neo4j at {neo4j_endpoint.uri}" in stderr
    assert server.process.returncode == 0
