"""Scope checks: a principal without `write` cannot call a tool that writes, one without
`admin` cannot erase.

A token lists only the tools its scopes allow (a read-only token lists no write tool); a call
outside them is refused with a `permission_denied` error before the tool runs. Callers
without credentials (stdio, or loopback HTTP with no tokens configured) act for the
configured default tenant with every scope.
"""

import json
from collections.abc import Sequence

import mcp.types as mt
from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import Tool, ToolResult

from graphmem.toolkit.toolspec import ToolSpec


def required_scopes(spec: ToolSpec) -> tuple[str, ...]:
    """What a token needs to list and call the tool: erasing is a write and an admin's (a
    metrics-only `admin` token erases nothing)."""
    if spec.admin:
        return ("write", "admin")
    return ("write",) if spec.writes else ("read",)


class ScopeMiddleware(Middleware):
    def __init__(self, specs: list[ToolSpec]) -> None:
        self._specs = {spec.name: spec for spec in specs}

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        token = get_access_token()
        spec = self._specs.get(context.message.name)
        if token is not None and spec is not None:
            missing = [scope for scope in required_scopes(spec) if scope not in token.scopes]
            if missing:
                needed = missing[0]
                raise ToolError(
                    json.dumps(
                        {
                            "error": "permission_denied",
                            "message": f"{spec.name} needs the '{needed}' scope; this token has "
                            f"{', '.join(token.scopes) or 'none'}",
                        }
                    )
                )
        return await call_next(context)

    async def on_list_tools(
        self,
        context: MiddlewareContext[mt.ListToolsRequest],
        call_next: CallNext[mt.ListToolsRequest, Sequence[Tool]],
    ) -> Sequence[Tool]:
        tools = await call_next(context)
        token = get_access_token()
        if token is None:
            return tools
        return [tool for tool in tools if self._allowed(tool.name, token.scopes)]

    def _allowed(self, name: str, scopes: list[str]) -> bool:
        spec = self._specs.get(name)
        return spec is None or all(scope in scopes for scope in required_scopes(spec))
