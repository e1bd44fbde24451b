"""What an agent pays for graphmem's tools, measured as the issue defines it: model-visible
tokens are the characters of each tool's name, description and input schema as the server
sends them (compact JSON), divided by 4; the whole tools/list is the characters of the
response's result, output schemas and annotations included, divided by 4."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.toolkit.startup import StoreGate

CHARS_PER_TOKEN = 4
BUDGETS = {"core": 4_000, "full": 14_000}  # model-visible tokens
MEASURED: dict[str, int] = {}  # toolset -> model-visible tokens, printed after the run
CORE_WHOLE_BUDGET = 10_000  # tokens of the whole core tools/list


@dataclass(frozen=True)
class ToolCost:
    name: str
    description: int  # characters
    input_schema: int
    output_schema: int

    @property
    def model_visible(self) -> int:
        return len(self.name) + self.description + self.input_schema


@dataclass(frozen=True)
class Surface:
    toolset: str
    tools: list[ToolCost]
    whole_chars: int

    @property
    def model_visible_tokens(self) -> int:
        return sum(tool.model_visible for tool in self.tools) // CHARS_PER_TOKEN

    @property
    def whole_tokens(self) -> int:
        return self.whole_chars // CHARS_PER_TOKEN


def _compact_json(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


async def measure(toolset: str, **settings: Any) -> Surface:
    """tools/list of a server whose database is not needed (nor opened) to list tools."""
    whole = {"toolset": toolset, "tenant": "surface", "erase_without_credentials": True}
    configured = Settings().model_copy(update=whole | settings)
    async with Client(create_server(StoreGate(), configured)) as client:
        listed = await client.session.list_tools()
    tools = [
        ToolCost(
            name=tool.name,
            description=len(tool.description or ""),
            input_schema=_compact_json(tool.input_schema),
            output_schema=_compact_json(tool.output_schema or {}),
        )
        for tool in listed.tools
    ]
    whole = len(listed.model_dump_json(by_alias=True, exclude_none=True))
    return Surface(toolset, tools, whole)
