"""bench.facts' calls: record_fact and current_state on the in-memory client, on the official
SDK client and through the domain; concurrent writers; the calls in flight in the server.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from typing import Any

import fastmcp
import mcp
import mcp.types as mt
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult

from bench.harness import Call
from graphmem.facts import service as facts
from graphmem.facts.models import RecordFactRequest
from graphmem.store import Store

PROJECT = "bench"
WRITERS = 8


async def concurrently(call: Call, total: int, workers: int = WRITERS) -> float:
    """Run ``call(0..total-1)`` on ``workers`` tasks; return the elapsed seconds."""
    numbers = itertools.count()

    async def worker() -> None:
        while (i := next(numbers)) < total:
            await call(i)

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(workers)))
    return time.perf_counter() - began


class InFlight(Middleware):
    """Counts tool calls running at once inside the server (shows whether a client serialises)."""

    def __init__(self) -> None:
        self.running = 0
        self.peak = 0

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        self.running += 1
        self.peak = max(self.peak, self.running)
        try:
            return await call_next(context)
        finally:
            self.running -= 1


def record_args(key: str, value: int) -> dict[str, Any]:
    return {"project": PROJECT, "key": key, "value": value}


def state_args(key: str) -> dict[str, Any]:
    return {"state_key": key, "project": PROJECT}


def tool_calls(client: fastmcp.Client[Any], key: Callable[[int], str]) -> tuple[Call, Call]:
    """record_fact and current_state on the in-memory client (it raises on tool errors)."""

    async def record(i: int) -> None:
        await client.call_tool("record_fact", record_args(key(i), i))

    async def state(i: int) -> None:
        await client.call_tool("current_state", state_args(key(i)))

    return record, state


def sdk_calls(client: mcp.Client, key: Callable[[int], str]) -> tuple[Call, Call]:
    """record_fact and current_state on the official SDK client, failing on tool errors."""

    async def call(tool: str, arguments: dict[str, Any]) -> None:
        result = await client.call_tool(tool, arguments)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content}")

    async def record(i: int) -> None:
        await call("record_fact", record_args(key(i), i))

    async def state(i: int) -> None:
        await call("current_state", state_args(key(i)))

    return record, state


def domain_record(store: Store, tenant: str, key: Callable[[int], str]) -> Call:
    async def record(i: int) -> None:
        request = RecordFactRequest(project=PROJECT, key=key(i), value=i)
        await facts.record_fact(store.of(tenant), request)

    return record


def cycling(keys: int) -> Callable[[int], str]:
    return lambda i: f"k{i % keys}"
