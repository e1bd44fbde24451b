"""Calls wait for the database (graphmem/toolkit/startup.py's gate): tool calls, prompts and
the resources that read the graph, with progress notifications when the client asked for
them, then the gate's retryable ``starting`` or its failure, as a tool's error payload."""

from __future__ import annotations

from typing import Any

import mcp.types as mt
from fastmcp.exceptions import PromptError, ResourceError, ToolError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult

from graphmem.app.boundary import tool_error
from graphmem.core.errors import GraphmemError
from graphmem.toolkit.startup import StoreGate


class ReadinessMiddleware(Middleware):
    """Tool calls and resource reads wait for the database (see the module docstring)."""

    def __init__(self, gate: StoreGate, bound: float, static_uris: frozenset[str]) -> None:
        self._gate = gate
        self._bound = bound
        self._static = static_uris  # resources that never touch the database

    async def _ready(self, context: MiddlewareContext[Any]) -> None:
        fastmcp_context = context.fastmcp_context

        async def report(waited: float, stage: str) -> None:
            if fastmcp_context is not None:  # sent only when the client gave a progress token
                await fastmcp_context.report_progress(waited, self._bound, f"waiting: {stage}")

        await self._gate.wait(self._bound, report)

    async def _gated(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any], error: type[Exception]
    ) -> Any:
        """Run the request once the database is ready; else fail it with ``error`` carrying
        the same JSON payload as a tool's error."""
        try:
            await self._ready(context)
        except GraphmemError as failure:
            raise error(str(tool_error(failure))) from failure
        return await call_next(context)

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        return await self._gated(context, call_next, ToolError)

    async def on_get_prompt(
        self,
        context: MiddlewareContext[mt.GetPromptRequestParams],
        call_next: CallNext[mt.GetPromptRequestParams, Any],
    ) -> Any:
        return await self._gated(context, call_next, PromptError)

    async def on_read_resource(
        self,
        context: MiddlewareContext[mt.ReadResourceRequestParams],
        call_next: CallNext[mt.ReadResourceRequestParams, Any],
    ) -> Any:
        if str(context.message.uri) in self._static:
            return await call_next(context)
        return await self._gated(context, call_next, ResourceError)
