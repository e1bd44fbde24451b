"""The one place where errors become MCP tool errors.

Every expected failure reaches the client as a ``ToolError`` whose text is a JSON payload
(``{"error": code, "message": ..., "field": ...}``, ``"retryable": true`` where a retry can
help). Errors about the server's environment (database unreachable, timeouts) reach the client
as one plain sentence; their detail (addresses, users) goes to the server log:
- a ``GraphmemError`` or pydantic ``ValidationError`` raised by a tool (``map_domain_errors``,
  applied to every tool at registration);
- arguments refused by the tool's input schema, which FastMCP validates before the tool runs
  (``ArgumentErrorMiddleware``).
Anything else is a bug: it propagates, FastMCP logs it to stderr, and the server's
``mask_error_details`` sends the client only a generic message.
"""

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

import mcp.types as mt
from fastmcp.exceptions import ToolError
from fastmcp.exceptions import ValidationError as ArgumentValidationError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from pydantic import ValidationError

from graphmem.core.errors import GraphmemError

log = logging.getLogger("graphmem")
P = ParamSpec("P")
R = TypeVar("R")


def validation_payload(error: ValidationError) -> dict[str, object]:
    """The first refused field names the error; ``fields`` lists every one when there are
    several (e.g. two required arguments both missing)."""
    problems = [
        (".".join(str(part) for part in item["loc"]) or "arguments", item["msg"])
        for item in error.errors(include_url=False)
    ]
    field, message = problems[0]
    payload: dict[str, object] = {
        "error": "invalid_argument",
        "field": field,
        "message": f"{field}: {message}",
    }
    fields = list(dict.fromkeys(name for name, _ in problems))
    if len(fields) > 1:
        payload["fields"] = fields
        payload["message"] = "; ".join(f"{name}: {text}" for name, text in problems[:10])
    return payload


def tool_error(error: GraphmemError | ValidationError) -> ToolError:
    if isinstance(error, ValidationError):
        payload = validation_payload(error)
    else:
        payload = error.client_payload()
        if payload["message"] != error.message:  # the detail is the operator's, not the client's
            log.warning("%s: %s", error.code, error.message)
    return ToolError(json.dumps(payload, ensure_ascii=False))


def map_domain_errors(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(fn)
    async def boundary(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except (GraphmemError, ValidationError) as error:
            raise tool_error(error) from error

    return boundary


class ArgumentErrorMiddleware(Middleware):
    """Schema-refused arguments get the same JSON payload as domain validation errors."""

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        try:
            return await call_next(context)
        except ArgumentValidationError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                raise tool_error(cause) from error
            raise ToolError(
                json.dumps({"error": "invalid_argument", "message": str(error)})
            ) from error
