"""Scope checks on every MCP method: what a principal may list, read, call and complete.

Every tool needs `read` (what a write answers carries the tenant's content too), a tool that
writes also `write`, erasing also `admin`. The
rule is default-deny: a request method is answered without `read` only when it is named here
as carrying none of the tenant's content (the handshake, ping, the lists, which are filtered
to what the scopes allow). Everything else — a resource read (the graph model excepted), a
prompt, a completion, any method a later FastMCP adds — needs `read`; a tool call needs what
its spec declares. A refusal is `permission_denied`, before anything is read.

Callers without credentials (stdio, or loopback HTTP with no tokens configured) act for the
configured default tenant with every scope but erasure: an agent's process can be steered by
text it recalled (injected into a memory or a raw turn), and with no token nothing but the
agent stands between such text and an irreversible erase. Erasure there needs the operator's
GRAPHMEM_ERASE_WITHOUT_CREDENTIALS; otherwise it is a token's with `write` and `admin`, or the
CLI's (`graphmem erase`).
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import mcp.types as mt
from fastmcp.exceptions import ToolError
from fastmcp.prompts import Prompt
from fastmcp.resources import Resource, ResourceTemplate
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import Tool, ToolResult
from mcp.shared.exceptions import MCPError

from graphmem.toolkit.toolspec import ToolSpec

PERMISSION_DENIED = -32003  # JSON-RPC server error range; the message says which scope
CONTENT_FREE_METHODS = frozenset(
    {
        "initialize",
        "ping",
        "server/discover",
        "logging/setLevel",
        "tools/list",  # the lists are filtered below to what the scopes allow
        "resources/list",
        "resources/templates/list",
        "prompts/list",
        "tools/call",  # per tool, in on_call_tool
    }
)
_TOKENLESS_ERASE = json.dumps(
    {
        "error": "permission_denied",
        "message": "erase is not offered to callers without credentials: use a token with the "
        "write and admin scopes or `graphmem erase`, or let the operator set "
        "GRAPHMEM_ERASE_WITHOUT_CREDENTIALS=true",
    }
)
OPEN_RESOURCES = frozenset({"graphmem://schema"})  # the graph model: no tenant's content


def required_scopes(spec: ToolSpec) -> tuple[str, ...]:
    """What a token needs to list and call the tool: `read` for every tool (a write answers
    with the tenant's content too: a context pack, the contradictions a fact meets), `write`
    for one that writes, and `admin` besides to erase (a metrics-only `admin` token erases
    nothing)."""
    if spec.admin:
        return ("read", "write", "admin")
    return ("read", "write") if spec.writes else ("read",)


def method_scopes(method: str, message: Any) -> tuple[str, ...]:
    """What a request needs besides what a tool call's spec declares (default: `read`). The
    message is the raw params mapping (the outer pass) or the method's typed params."""
    if method == "resources/read" and _uri(message) in OPEN_RESOURCES:
        return ()
    return () if method in CONTENT_FREE_METHODS else ("read",)


def _uri(message: Any) -> str | None:
    uri: object = (
        cast("Mapping[str, object]", message).get("uri")
        if isinstance(message, Mapping)
        else getattr(message, "uri", None)
    )
    return None if uri is None else str(uri)


def _denied(what: str, needed: str, scopes: list[str]) -> str:
    return json.dumps(
        {
            "error": "permission_denied",
            "message": f"{what} needs the '{needed}' scope; this token has "
            f"{', '.join(scopes) or 'none'}",
        }
    )


class ScopeMiddleware(Middleware):
    def __init__(self, specs: list[ToolSpec], *, erase_without_credentials: bool) -> None:
        self._specs = {spec.name: spec for spec in specs}
        self._tokenless_admin = erase_without_credentials

    async def on_request(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]
    ) -> Any:
        token = get_access_token()
        method = context.method or ""
        if token is not None:
            for needed in method_scopes(method, context.message):
                if needed not in token.scopes:
                    raise MCPError(
                        code=PERMISSION_DENIED, message=_denied(method, needed, token.scopes)
                    )
        return await call_next(context)

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        token = get_access_token()
        spec = self._specs.get(context.message.name)
        if spec is not None and token is None and not self._tokenless(spec):
            raise ToolError(_TOKENLESS_ERASE)
        if token is not None and spec is not None:
            missing = [scope for scope in required_scopes(spec) if scope not in token.scopes]
            if missing:
                raise ToolError(_denied(spec.name, missing[0], token.scopes))
        return await call_next(context)

    async def on_list_tools(
        self,
        context: MiddlewareContext[mt.ListToolsRequest],
        call_next: CallNext[mt.ListToolsRequest, Sequence[Tool]],
    ) -> Sequence[Tool]:
        tools = await call_next(context)
        token = get_access_token()
        if token is None:
            return [tool for tool in tools if self._tokenless(self._specs.get(tool.name))]
        return [tool for tool in tools if self._allowed(tool.name, token.scopes)]

    async def on_list_resources(
        self,
        context: MiddlewareContext[mt.ListResourcesRequest],
        call_next: CallNext[mt.ListResourcesRequest, Sequence[Resource]],
    ) -> Sequence[Resource]:
        resources = await call_next(context)
        if _reads():
            return resources
        return [resource for resource in resources if str(resource.uri) in OPEN_RESOURCES]

    async def on_list_resource_templates(
        self,
        context: MiddlewareContext[mt.ListResourceTemplatesRequest],
        call_next: CallNext[mt.ListResourceTemplatesRequest, Sequence[ResourceTemplate]],
    ) -> Sequence[ResourceTemplate]:
        templates = await call_next(context)
        return templates if _reads() else []  # every template reads the tenant

    async def on_list_prompts(
        self,
        context: MiddlewareContext[mt.ListPromptsRequest],
        call_next: CallNext[mt.ListPromptsRequest, Sequence[Prompt]],
    ) -> Sequence[Prompt]:
        prompts = await call_next(context)
        return prompts if _reads() else []  # every prompt renders the tenant

    def _tokenless(self, spec: ToolSpec | None) -> bool:
        """Whether a caller without credentials may list and call the tool."""
        return spec is None or not spec.admin or self._tokenless_admin

    def _allowed(self, name: str, scopes: list[str]) -> bool:
        spec = self._specs.get(name)
        return spec is None or all(scope in scopes for scope in required_scopes(spec))


def _reads() -> bool:
    """Whether the caller may read its tenant (no token: stdio or token-less loopback)."""
    token = get_access_token()
    return token is None or "read" in token.scopes
