"""Scope checks: a principal without `write` cannot call a tool that writes, one without
`admin` cannot erase.

The tool stays listed (clients see the whole catalogue); the call is refused with a
`permission_denied` error before the tool runs. Callers without credentials (stdio, or
loopback HTTP with no tokens configured) act for the configured default tenant with every
scope.
"""

import json

import mcp.types as mt
from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult

from graphmem.toolkit.toolspec import ToolSpec


def required_scope(spec: ToolSpec) -> str:
    if spec.admin:
        return "admin"
    return "write" if spec.writes else "read"


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
            needed = required_scope(spec)
            if needed not in token.scopes:
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
