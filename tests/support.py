"""Helpers tests import: the verifier's keys and calls through an MCP client."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastmcp import Client
from fastmcp.client.client import CallToolResult
from mcp.types import TextContent

from graphmem.app.catalogue import CATALOGUE

# Test-only statements (drift no tool produces, fixtures, inspections), named like the catalog.
TEST_CATALOG = Path(__file__).parent / "cypher"


@dataclass(frozen=True)
class Verifier:
    identity: str
    private_key: Ed25519PrivateKey
    keys_file: Path


COMPACT_TOOLS = frozenset(spec.name for spec in CATALOGUE if spec.answer is not None)


class WholeRecordClient(Client[Any]):
    """A real MCP client for the domain tests, which check what a write stored: a write with
    a compact answer is asked for ``detail: "full"`` and its result is the whole record, as
    the tool answered before compact answers. tests/app/test_compact_answers.py checks the
    compact default with a plain client."""

    async def call_tool(  # type: ignore[override]
        self, name: str, arguments: dict[str, Any] | None = None, **options: Any
    ) -> CallToolResult:
        arguments = dict(arguments or {})
        if name not in COMPACT_TOOLS:
            return await super().call_tool(name, arguments, **options)
        arguments.setdefault("detail", "full")
        result = await super().call_tool(name, arguments, **options)
        record = (result.structured_content or {}).get("record")
        if result.is_error or record is None:
            return result
        text = TextContent(type="text", text=json.dumps(record))
        return replace(result, content=[text], structured_content=record, data=record)


async def call(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured result."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def call_error(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must fail with a graphmem error; return the parsed payload."""
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    assert result.is_error, result.structured_content
    return json.loads(result.content[0].text)  # type: ignore[union-attr]
