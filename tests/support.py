"""Helpers tests import: the verifier's keys and calls through an MCP client."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastmcp import Client

# Test-only statements (drift no tool produces, fixtures, inspections), named like the catalog.
TEST_CATALOG = Path(__file__).parent / "cypher"


@dataclass(frozen=True)
class Verifier:
    identity: str
    private_key: Ed25519PrivateKey
    keys_file: Path


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
