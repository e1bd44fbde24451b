"""What an agent pays before doing anything useful stays within budget (tokens as the issue
defines them, see tests/app/surface.py). No database: tools/list never touches it."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.toolkit.startup import StoreGate
from tests.app.surface import BUDGETS, CORE_WHOLE_BUDGET, MEASURED, measure

pytestmark = pytest.mark.pure


@pytest.mark.parametrize("toolset", ["core", "full"])
async def test_model_visible_tokens_are_within_budget(toolset: str) -> None:
    surface = await measure(toolset)
    MEASURED[toolset] = surface.model_visible_tokens  # printed at the end: growth shows
    assert surface.model_visible_tokens <= BUDGETS[toolset], (
        f"{toolset}: {surface.model_visible_tokens} model-visible tokens "
        f"(budget {BUDGETS[toolset]}); largest: "
        + ", ".join(
            f"{tool.name} {tool.model_visible}"
            for tool in sorted(surface.tools, key=lambda tool: -tool.model_visible)[:5]
        )
    )


async def test_the_whole_core_listing_is_within_budget() -> None:
    surface = await measure("core")
    assert surface.whole_tokens <= CORE_WHOLE_BUDGET, surface.whole_tokens


async def test_the_core_set_covers_a_session() -> None:
    """Recall at start, record a fact, a decision and a memory, search, check state, impact."""
    names = {tool.name for tool in (await measure("core")).tools}
    assert names == {
        "recall_user_context",
        "record_fact",
        "record_decision",
        "save_memory",
        "search",
        "current_state",
        "explain_impact",
    }


async def test_schemas_are_compact() -> None:
    """Output schemas describe shapes (no prose: the description says what comes back);
    input schemas are inlined, an optional argument is its plain type."""
    settings = Settings().model_copy(update={"toolset": "full", "tenant": "surface"})
    async with Client(create_server(StoreGate(), settings)) as client:
        tools = await client.list_tools()
    for tool in tools:
        output = _keywords(tool.output_schema)
        assert not output & {"description", "title", "examples"}, tool.name
        given = _keywords(tool.input_schema)
        assert not given & {"$ref", "$defs", "title", "optional-null"}, tool.name


def _keywords(schema: Any) -> set[str]:
    """The schema keywords used anywhere in ``schema`` (property names are not keywords);
    an ``anyOf`` of one type and null counts as ``optional-null``."""
    found: set[str] = set()
    if isinstance(schema, list):
        for item in schema:
            found |= _keywords(item)
    elif isinstance(schema, dict):
        options = schema.get("anyOf")
        if isinstance(options, list) and len(options) == 2 and {"type": "null"} in options:
            found.add("optional-null")
        for key, value in schema.items():
            if key in ("properties", "$defs") and isinstance(value, dict):
                for sub in value.values():
                    found |= _keywords(sub)
            else:
                found.add(key)
                found |= _keywords(value)
    return found
