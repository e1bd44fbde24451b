"""What the benches share: their statements' catalog, scratch tenants and stores, the
in-memory client of the real server, one-at-a-time timing and its percentiles, and their
output line.
Not a bench of its own: no command line.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fastmcp
from fastmcp.server.middleware import Middleware

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.neo4j_endpoint import find_endpoint, in_worker_thread

# The benches' own statements (bulk setup, probes): bench/cypher, a catalog apart from cypher/.
BENCH_CATALOG = Path(__file__).resolve().parent / "cypher"
Call = Callable[[int], Awaitable[object]]


# --- figures ----------------------------------------------------------------------------------
def quantile_ms(seconds: list[float], percent: int) -> float:
    return statistics.quantiles(seconds, n=100, method="inclusive")[percent - 1] * 1000


@dataclass(frozen=True)
class Latency:
    name: str
    seconds: list[float]
    bolt: list[float] = field(default_factory=list)  # Bolt pings interleaved with the samples

    @property
    def p50(self) -> float:
        return quantile_ms(self.seconds, 50)

    @property
    def p95(self) -> float:
        return quantile_ms(self.seconds, 95)

    @property
    def local_ratio(self) -> str:
        """p50 over the p50 of the interleaved pings: robust to the machine's load changing."""
        return f"{self.p50 / quantile_ms(self.bolt, 50):.1f}" if self.bolt else "-"


def say(line: str) -> None:
    print(line, flush=True)


# --- timing ----------------------------------------------------------------------------------
async def clock(call: Call, i: int) -> float:
    began = time.perf_counter()
    await call(i)
    return time.perf_counter() - began


async def measure(
    name: str, call: Call, count: int, warmup: int, store: Store | None = None
) -> Latency:
    """Run ``call(i)`` ``warmup`` times untimed, then ``count`` times timed, one at a time.

    With a store, a timed Bolt ping follows each call: the figure's interleaved reference.
    """
    for i in range(warmup):
        await call(i)
    seconds: list[float] = []
    bolt: list[float] = []
    for i in range(warmup, warmup + count):
        seconds.append(await clock(call, i))
        if store is not None:
            bolt.append(await clock(lambda _: store.ping(), i))
    return Latency(name, seconds, bolt)


# --- stores, tenants and clients --------------------------------------------------------------
@contextlib.asynccontextmanager
async def bench_store() -> AsyncIterator[Store]:
    """A store with the schema applied, on NEO4J_URI if set, else on a managed local Neo4j
    in a temporary folder (stopped afterwards)."""
    async with contextlib.AsyncExitStack() as stack:
        if os.environ.get("NEO4J_URI"):
            uri = os.environ["NEO4J_URI"]
            user = os.environ.get("NEO4J_USER", "neo4j")
            password = os.environ.get("NEO4J_PASSWORD", "")
        else:
            scratch = stack.enter_context(tempfile.TemporaryDirectory())
            endpoint = await stack.enter_async_context(
                in_worker_thread(find_endpoint(Path(scratch)))
            )
            uri, user, password = endpoint.uri, endpoint.user, endpoint.password
        store = await Store.connect(uri, user, password)
        try:
            await store.apply_schema()
            yield store
        finally:
            await store.close()


@contextlib.asynccontextmanager
async def scratch_tenant(store: Store, label: str) -> AsyncIterator[str]:
    tenant = f"bench-{label}-{uuid.uuid4().hex[:8]}"
    try:
        yield tenant
    finally:
        await store.purge_tenant(tenant)


@contextlib.asynccontextmanager
async def in_memory_client(
    store: Store, tenant: str, *middleware: Middleware
) -> AsyncIterator[fastmcp.Client[Any]]:
    settings = Settings().model_copy(update={"tenant": tenant, "toolset": "full"})
    server = create_server(store, settings)
    for layer in middleware:
        server.add_middleware(layer)
    async with fastmcp.Client(server) as client:
        yield client
