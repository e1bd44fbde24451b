"""Server assembly: what `create_server` costs (every test and every process pays it).

    python -m bench.server_start

Builds the full-toolset server (verifier off) around a store whose driver is never used: the
assembly derives and registers every tool and touches no database. Prints the first build
(which derives each tool's schemas once per process), the p50 of the builds after it, and the
first tools/list of a fresh server.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import neo4j
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store

BUILDS = 50


def _unused_store() -> Store:
    driver = neo4j.AsyncGraphDatabase.driver("bolt://127.0.0.1:9", auth=("neo4j", "unused"))
    return Store(driver, uri="bolt://127.0.0.1:9", user="neo4j", database="neo4j")


async def main() -> None:
    settings = Settings().model_copy(update={"toolset": "full", "tenant": "bench"})
    store = _unused_store()
    started = time.perf_counter()
    server = create_server(store, settings)
    first = time.perf_counter() - started
    builds = []
    for _ in range(BUILDS):
        started = time.perf_counter()
        server = create_server(store, settings)
        builds.append(time.perf_counter() - started)
    async with Client(server) as client:
        started = time.perf_counter()
        tools = await client.list_tools()
        listing = time.perf_counter() - started
    await store.close()
    print(f"full toolset, {len(tools)} tools")
    print(f"first create_server: {first * 1000:.0f} ms (derives every tool once per process)")
    print(f"create_server p50 over {BUILDS}: {statistics.median(builds) * 1000:.1f} ms")
    print(f"first tools/list of a server: {listing * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())
