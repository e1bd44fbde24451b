"""Overhead of the call observer (metrics + one log line per tool call, graphmem/app/metrics.py).

    python -m bench.metrics

1. The middleware alone: ``CallObserver.on_call_tool`` around a call that does nothing,
   with its log line off and then written (to /dev/null, in logging's basic format).
2. Whole in-memory calls on one Neo4j (NEO4J_URI, else a managed local one): the same
   server with the observer, without it, and with an empty pass-through middleware in its
   place (what any middleware layer costs), called in rotation so machine noise hits all
   alike: a refused current_state (no database) and a current_state.
"""

from __future__ import annotations

import asyncio
import logging
import os
import statistics
import time
from typing import Any

import fastmcp
import mcp.types as mt
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult

from bench.harness import bench_store, scratch_tenant
from graphmem.app.metrics import CallObserver, ToolMetrics
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store

MICRO_CALLS = 200_000
ROUNDS = 30


class PassThrough(Middleware):
    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        return await call_next(context)


class _Message:
    name = "current_state"


class _Context:
    message = _Message()


async def micro(observer: CallObserver) -> float:
    """µs the observer adds to one call."""

    async def nothing(_: Any) -> Any:
        return None

    call_next: Any = nothing  # stands for the rest of the chain
    context: Any = _Context()
    began = time.perf_counter()
    for _ in range(MICRO_CALLS):
        await call_next(context)
    bare = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(MICRO_CALLS):
        await observer.on_call_tool(context, call_next)
    return (time.perf_counter() - began - bare) / MICRO_CALLS * 1e6


def servers(store: Store, tenant: str) -> dict[str, fastmcp.FastMCP]:
    settings = Settings().model_copy(update={"tenant": tenant, "toolset": "full"})
    made = {name: create_server(store, settings) for name in ("observer", "none", "pass-through")}
    for name in ("none", "pass-through"):
        assert isinstance(made[name].middleware[0], CallObserver)
        del made[name].middleware[0]
    made["pass-through"].middleware.insert(0, PassThrough())
    return made


async def whole_calls(
    made: dict[str, fastmcp.FastMCP], arguments: dict[str, Any], calls: int
) -> dict[str, float]:
    """Median µs per call of each server, over ROUNDS rounds in rotating order."""
    times: dict[str, list[float]] = {name: [] for name in made}
    clients = {name: fastmcp.Client(server) for name, server in made.items()}
    names = list(made)
    for client in clients.values():
        await client.__aenter__()
    try:
        for client in clients.values():  # warm up
            for _ in range(50):
                await client.call_tool("current_state", arguments, raise_on_error=False)
        for index in range(ROUNDS):
            for name in names[index % 3 :] + names[: index % 3]:
                began = time.perf_counter()
                for _ in range(calls):
                    await clients[name].call_tool("current_state", arguments, raise_on_error=False)
                times[name].append((time.perf_counter() - began) / calls * 1e6)
    finally:
        for client in clients.values():
            await client.__aexit__(None, None, None)
    return {name: statistics.median(values) for name, values in times.items()}


async def run() -> None:
    logging.getLogger("fastmcp").setLevel(logging.ERROR)  # its warning per refused call
    log = logging.getLogger("graphmem.calls")
    log.propagate = False
    log.setLevel(logging.WARNING)
    observer = CallObserver(ToolMetrics(), ["current_state"], lambda: "some-tenant")
    quiet = await micro(observer)
    handler = logging.FileHandler(os.devnull)  # a real handler, writing nowhere
    handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    logged = await micro(observer)
    print(f"middleware alone: {quiet:.2f} µs/call; with the log line written {logged:.2f} µs")
    async with bench_store() as store, scratch_tenant(store, "metrics") as tenant:
        made = servers(store, tenant)
        cases = (("refused current_state", {"project": 7}, 200), ("current_state", {}, 100))
        for label, arguments, calls in cases:
            arguments = arguments or {"state_key": "k", "project": "p"}
            medians = await whole_calls(made, arguments, calls)
            shown = ", ".join(f"{name} {us / 1000:.2f} ms" for name, us in medians.items())
            print(f"{label} (median of {ROUNDS} x {calls} in-memory calls): {shown}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
