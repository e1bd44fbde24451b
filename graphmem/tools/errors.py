"""The one place where domain errors become MCP tool errors.

A ``GraphmemError`` or a pydantic ``ValidationError`` becomes a ``ToolError`` whose text is a
JSON payload (``{"error": code, "message": ..., "field": ...}``) that clients can parse.
Anything else is a bug: it propagates, FastMCP logs it to stderr, and the server's
``mask_error_details`` sends the client only a generic message.
"""

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from fastmcp.exceptions import ToolError
from pydantic import ValidationError

from graphmem.errors import GraphmemError

P = ParamSpec("P")
R = TypeVar("R")


def validation_payload(error: ValidationError) -> dict[str, object]:
    first = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first["loc"]) or "arguments"
    return {"error": "invalid_argument", "field": field, "message": f"{field}: {first['msg']}"}


def tool_error(error: GraphmemError | ValidationError) -> ToolError:
    payload = (
        validation_payload(error) if isinstance(error, ValidationError) else error.payload()
    )
    return ToolError(json.dumps(payload, ensure_ascii=False))


def map_domain_errors(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(fn)
    async def boundary(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except (GraphmemError, ValidationError) as error:
            raise tool_error(error) from error

    return boundary


def parse_tool_error(text: str) -> dict[str, Any]:
    """Inverse of ``tool_error`` for clients and tests."""
    return json.loads(text)
