"""Cache hints (MCP 2026-07-28, SEP-2549): a modern client may cache the tool, prompt and
resource lists for an hour (they change only with a restart), shared across callers when no
credentials scope them; a resource read is never cacheable (it answers the graph as it is
now); a legacy client sees no hint."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from graphmem.app.server import LIST_CACHE_SECONDS, create_server
from graphmem.core.settings import Settings
from graphmem.store import Store


async def test_lists_carry_hints_and_reads_none(store: Store, settings: Settings) -> None:
    server = create_server(store, settings)
    async with Client(server) as modern:
        assert modern.protocol_version == "2026-07-28"
        hinted: list[Any] = [
            await modern.list_tools_mcp(),
            await modern.list_prompts_mcp(),
            await modern.list_resources_mcp(),
        ]
        for result in hinted:
            assert (result.ttl_ms, result.cache_scope) == (LIST_CACHE_SECONDS * 1000, "public")
        read = await modern.read_resource_mcp("graphmem://stats")
        assert read.ttl_ms == 0  # not cacheable
    async with Client(server, mode="legacy") as legacy:
        assert legacy.protocol_version != "2026-07-28"
        assert (await legacy.list_tools_mcp()).ttl_ms == 0
