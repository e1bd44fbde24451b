"""The official Python SDK client (`mcp`), in its modern mode (2026-07-28: server/discover)
and its legacy mode (2025-11-25: initialize), over streamable HTTP and stdio: list the tools
(core and full), call a write and a read, hear progress from a long tool, read a resource,
get a prompt and a completion. Clients nobody here wrote, against `graphmem serve`."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import mcp
import pytest
from mcp.client.stdio import stdio_client
from mcp.types import PromptReference

from graphmem.app.catalogue import tools_for
from tests.app.helpers import GRAPHMEM, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

VERSIONS = {"auto": "2026-07-28", "legacy": "2025-11-25"}


def _env(endpoint: Endpoint, tenant: str, toolset: str) -> dict[str, str]:
    return clean_env(**endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_TOOLSET=toolset)


@contextlib.asynccontextmanager
async def _connected(
    transport: str, mode: str, env: dict[str, str], log: Path
) -> AsyncIterator[mcp.Client]:
    if transport == "http":
        with serving_http(env) as server:
            async with mcp.Client(server.url, mode=mode) as client:
                yield client
        return
    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env
    )
    with log.open("w") as errors:
        async with mcp.Client(stdio_client(parameters, errlog=errors), mode=mode) as client:
            yield client


async def _a_session_of_work(client: mcp.Client) -> None:
    written = await client.call_tool("record_fact", {"project": "p", "key": "sdk", "value": 7})
    assert not written.is_error, written.content
    read = await client.call_tool("current_state", {"state_key": "sdk", "project": "p"})
    assert read.structured_content is not None
    assert read.structured_content["answer"]["value"] == 7
    heard: list[Any] = []

    async def heard_of(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    maintained = await client.call_tool("maintain", {}, progress_callback=heard_of)
    assert not maintained.is_error and heard, maintained.content
    stats = await client.read_resource("graphmem://stats")
    assert '"facts"' in stats.contents[0].text  # type: ignore[union-attr]
    prompt = await client.get_prompt("start_session", {"project": "p", "task": "tune the db"})
    assert "tune the db" in prompt.messages[0].content.text  # type: ignore[union-attr]
    reference = PromptReference(type="ref/prompt", name="start_session")
    completed = await client.complete(reference, {"name": "project", "value": ""})
    assert "p" in completed.completion.values


@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize("mode", list(VERSIONS))
async def test_the_official_python_client(
    neo4j_endpoint: Endpoint, tenant: str, tmp_path: Path, transport: str, mode: str
) -> None:
    env = _env(neo4j_endpoint, tenant, "full")
    async with _connected(transport, mode, env, tmp_path / "stderr") as client:
        assert client.protocol_version == VERSIONS[mode]
        listed = {tool.name for tool in (await client.list_tools()).tools}
        # no verifier keys; erase is not offered without credentials by default
        assert listed == {spec.name for spec in tools_for("full")} - {"verify_fact", "erase"}
        await _a_session_of_work(client)


async def test_the_core_toolset_over_stdio(
    neo4j_endpoint: Endpoint, tenant: str, tmp_path: Path
) -> None:
    env = _env(neo4j_endpoint, tenant, "core")
    async with _connected("stdio", "auto", env, tmp_path / "stderr") as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == {spec.name for spec in tools_for("core")}
