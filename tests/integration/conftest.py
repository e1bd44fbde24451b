"""Per-test tenant (wiped afterwards) and an in-memory MCP client on a real Neo4j."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client

from graphmem.server import create_server
from graphmem.settings import Settings
from graphmem.store import Store


@pytest.fixture
async def tenant(store: Store) -> AsyncIterator[str]:
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    await store.purge_tenant(name)


@pytest.fixture
def settings(tenant: str) -> Settings:
    return Settings().model_copy(update={"tenant": tenant, "toolset": "full"})


@pytest.fixture
async def client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with Client(create_server(store, settings)) as connected:
        yield connected


async def call(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured result."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def call_error(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must fail with a graphmem error; return the parsed payload."""
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    assert result.is_error, result.structured_content
    return json.loads(result.content[0].text)  # type: ignore[union-attr]
