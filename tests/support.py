"""Helpers tests import (declared once here, not copied into each module): the verifier's
keys, calls through an MCP client, the history head, a Hypothesis harness."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastmcp import Client
from fastmcp.client.client import CallToolResult
from mcp.types import TextContent

from graphmem.app.catalogue import CATALOGUE
from graphmem.store import Store

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


async def revision(client: Client[Any]) -> int:
    """The tenant's history head: the revision its last event carries."""
    return (await call(client, "replay_memory", limit=1))["chain"]["head_revision"]


async def stats(client: Client[Any]) -> Any:
    """The graphmem://stats resource, parsed: what a refused call must leave unchanged."""
    contents = await client.read_resource("graphmem://stats")
    return json.loads(contents[0].text)  # type: ignore[union-attr]


async def govern(
    client: Client[Any], memory_id: str, action: str, reason: str, version: int = 1
) -> dict[str, Any]:
    """govern_memory on one memory, for real (not a dry run), at its ``version``."""
    return await call(
        client,
        "govern_memory",
        ids=[memory_id],
        action=action,
        dry_run=False,
        confirm_destructive=True,
        reason=reason,
        expected_versions={memory_id: version},
    )


async def save(client: Client[Any], **arguments: Any) -> dict[str, Any]:
    """save_memory with a default project, title and content; the saved memory."""
    defaults = {"project": "p", "title": "Ledger database", "content": "We chose Postgres."}
    return (await call(client, "save_memory", **{**defaults, **arguments}))["memory"]


async def archive(
    client: Client[Any], turns: list[dict[str, Any]], session_ref: str = "s1", **arguments: Any
) -> dict[str, Any]:
    """archive_turns into project p of host h, source root r; its answer."""
    defaults = {"project": "p", "host": "h", "source_root": "r", "session_ref": session_ref}
    return await call(client, "archive_turns", **{**defaults, **arguments}, turns=turns)


@dataclass
class Harness:
    """The session's event loop and store, for a synchronous Hypothesis test: it runs its
    coroutines with ``loop.run_until_complete`` (tests/conftest.py's ``harness``)."""

    loop: asyncio.AbstractEventLoop
    store: Store


def cosine(a: list[float], b: list[float]) -> float:
    """The cosine of two unit vectors: their dot product."""
    return sum(x * y for x, y in zip(a, b, strict=True))
