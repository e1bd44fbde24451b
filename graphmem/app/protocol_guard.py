"""Request fields of the 2026-07-28 revision the SDK's types let through as null.

A ``tools/call`` may carry ``inputResponses`` (an object: the client's answers to an
``input_required`` result) and ``requestState`` (a string). The Python SDK types both as
optional, so an explicit ``null`` (or, for the state, a number) would run the tool as if
nothing were there; the specification makes a malformed request a protocol error. graphmem
never asks for input, but it answers the malformed request as the spec says: JSON-RPC -32602,
before the call is counted or run.
"""

from __future__ import annotations

from collections.abc import Mapping

import mcp.types as mt
from fastmcp.server.dependencies import fastmcp_request_ctx
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.shared.exceptions import MCPError

INVALID_PARAMS = -32602
SHAPES: dict[str, tuple[type, str]] = {
    "inputResponses": (dict, "an object"),
    "requestState": (str, "a string"),
}


class ProtocolParamsGuard(Middleware):
    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        problem = malformed(_raw_params())
        if problem is not None:
            raise MCPError(code=INVALID_PARAMS, message=problem)
        return await call_next(context)


def malformed(params: Mapping[str, object] | None) -> str | None:
    """What is wrong with the request's own fields (None: nothing)."""
    for field, (kind, name) in SHAPES.items():
        if params is not None and field in params and not isinstance(params[field], kind):
            return f"{field} must be {name} when present"
    return None


def _raw_params() -> Mapping[str, object] | None:
    """The request's params as sent (the middleware's message is rebuilt from the tool's
    name and arguments only)."""
    request = fastmcp_request_ctx.get()
    if request is None:
        return None
    params = request._srctx.params  # pyright: ignore[reportPrivateUsage]  # FastMCP's documented escape hatch: no public way to the raw params
    return params if isinstance(params, Mapping) else None
