"""Rules every tool follows, checked over the whole catalogue (grows with every tool)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastmcp import Client

from graphmem.app.catalogue import CATALOGUE, tools_for
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.support import Verifier


async def _listed(
    store: Store, toolset: str, keys: Path | None = None, erase_without_credentials: bool = True
) -> list[Any]:
    settings = Settings().model_copy(
        update={
            "toolset": toolset,
            "tenant": "test-catalogue",
            "verifier_keys_file": keys,
            "erase_without_credentials": erase_without_credentials,
        }
    )
    async with Client(create_server(store, settings)) as client:
        return await client.list_tools()


async def test_toolsets_expose_exactly_their_tools(store: Store, verifier: Verifier) -> None:
    core = {tool.name for tool in await _listed(store, "core", verifier.keys_file)}
    full = {tool.name for tool in await _listed(store, "full", verifier.keys_file)}
    assert core == {spec.name for spec in tools_for("core")}
    assert full == {spec.name for spec in CATALOGUE}
    assert core <= full
    tokenless = await _listed(store, "full", verifier.keys_file, erase_without_credentials=False)
    assert {tool.name for tool in tokenless} == full - {"erase"}  # by the operator's leave


async def test_verify_fact_is_listed_only_when_verifiers_are_configured(store: Store) -> None:
    assert "verify_fact" not in {tool.name for tool in await _listed(store, "full")}


async def test_every_tool_is_described_typed_and_annotated(
    store: Store, verifier: Verifier
) -> None:
    for tool in await _listed(store, "full", verifier.keys_file):
        spec = next(spec for spec in CATALOGUE if spec.name == tool.name)
        assert tool.title == spec.title and tool.title != tool.name.replace("_", " ").title()
        assert tool.description and len(tool.description) > 200, tool.name
        assert tool.input_schema.get("additionalProperties") is False, tool.name
        assert tool.output_schema and tool.output_schema.get("type") == "object", tool.name
        annotations = tool.annotations
        assert annotations is not None
        assert annotations.open_world_hint is False
        assert annotations.read_only_hint is (not spec.writes)
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
            text = schema.get("type") == "string" or any(
                option.get("type") == "string" for option in schema.get("anyOf", [])
            )
            if text:
                options = [schema, *schema.get("anyOf", [])]
                bounded = all(
                    "maxLength" in o
                    or "enum" in o
                    or "const" in o
                    or o.get("format") == "date-time"
                    for o in options
                    if o.get("type") == "string"
                )
                assert bounded, f"{tool.name}.{name} is an unbounded string"
