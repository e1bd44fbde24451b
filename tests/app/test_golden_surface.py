"""The surface clients see, pinned: tools/list for both toolsets (verifier configured) and the
resources. A refactor keeps these files unchanged; an issue that changes the surface on purpose
regenerates them with ``GRAPHMEM_UPDATE_GOLDEN=1 pytest tests/app/test_golden_surface.py``
and the diff shows in review."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.support import Verifier

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


async def _surface(store: Store, toolset: str, keys: Path) -> dict[str, Any]:
    settings = Settings().model_copy(  # every tool: erase too (a token-less caller's by leave)
        update={
            "toolset": toolset,
            "tenant": "test-golden",
            "verifier_keys_file": keys,
            "erase_without_credentials": True,
        }
    )
    async with Client(create_server(store, settings)) as client:
        tools = await client.list_tools()
        resources = await client.list_resources()
        templates = await client.list_resource_templates()
    # Tools by name: the order of tools/list carries no meaning for a client.
    tools = sorted(tools, key=lambda tool: tool.name)
    return {
        "tools": [tool.model_dump(mode="json", exclude_none=True) for tool in tools],
        "resources": [item.model_dump(mode="json", exclude_none=True) for item in resources],
        "resource_templates": [
            item.model_dump(mode="json", exclude_none=True) for item in templates
        ],
    }


@pytest.mark.parametrize("toolset", ["core", "full"])
async def test_surface_matches_golden(store: Store, verifier: Verifier, toolset: str) -> None:
    surface = await _surface(store, toolset, verifier.keys_file)
    text = json.dumps(surface, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    golden = GOLDEN / f"surface_{toolset}.json"
    if os.environ.get("GRAPHMEM_UPDATE_GOLDEN") == "1":
        golden.write_text(text)
    expected = json.loads(golden.read_text())
    for want, got in zip(expected["tools"], surface["tools"], strict=False):
        assert got == want, f"tool {want['name']} differs from {golden.name}"
    assert surface == expected, f"the surface differs from {golden.name}"
