"""Writes answer compactly by default (ids, what changed, revision, signals raised); detail=full
adds the whole record; an unknown detail is refused like any bad argument."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.catalogue import CATALOGUE
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store

MAX_PLAIN_RECORD_FACT = 700  # characters of text content


@pytest.fixture
async def client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    """A plain client: the answers as an agent gets them."""
    async with Client(create_server(store, settings)) as connected:
        yield connected


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def test_a_plain_record_fact_answers_compactly(client: Client[Any]) -> None:
    result = await client.call_tool(
        "record_fact", {"project": "p", "key": "api.p95_ms", "value": {"ms": 250, "n": 9}}
    )
    text = _text(result)
    assert len(text) <= MAX_PLAIN_RECORD_FACT, len(text)
    assert json.loads(text) == result.structured_content  # the two say the same
    answer = result.structured_content
    assert answer is not None
    assert set(answer) == {
        "id", "key", "status", "superseded_id", "revision", "idempotent_replay",
        "review_signals",
    }  # fmt: skip
    assert answer["status"] == "active"  # no record key: only detail=full adds one


async def test_detail_full_adds_the_whole_record(client: Client[Any]) -> None:
    first = await client.call_tool("record_fact", {"project": "p", "key": "k", "value": 1})
    again = await client.call_tool(
        "record_fact", {"project": "p", "key": "k", "value": 2, "detail": "full"}
    )
    answer = again.structured_content
    assert answer is not None and answer["record"] is not None
    assert answer["record"]["value"] == 2 and answer["record"]["key"] == "k"
    assert answer["record"]["superseded_id"] == first.structured_content["id"]  # type: ignore[index]
    assert answer["record"]["id"] == answer["id"]


async def test_an_unknown_detail_is_refused_and_writes_nothing(client: Client[Any]) -> None:
    refused = await client.call_tool(
        "record_fact",
        {"project": "p", "key": "never", "value": 1, "detail": "everything"},
        raise_on_error=False,
    )
    assert refused.is_error
    error = json.loads(_text(refused))
    assert error["error"] == "invalid_argument" and error["field"] == "detail"
    state = await client.call_tool("current_state", {"project": "p", "state_key": "never"})
    assert state.structured_content["status"] == "not_found"  # type: ignore[index]


async def test_other_writes_answer_compactly(client: Client[Any]) -> None:
    decision = await client.call_tool(
        "record_decision", {"project": "p", "title": "Use Neo4j", "choice": "Neo4j 5"}
    )
    memory = await client.call_tool(
        "save_memory", {"project": "p", "title": "Lesson", "content": "Pin the driver."}
    )
    for result in (decision, memory):
        answer = result.structured_content
        assert answer is not None and "record" not in answer and answer["id"]
        assert len(_text(result)) <= MAX_PLAIN_RECORD_FACT
    assert decision.structured_content["status"] == "active"  # type: ignore[index]
    assert memory.structured_content["operation"] == "created"  # type: ignore[index]


async def test_every_compact_answer_is_named_in_its_description() -> None:
    """Each description says what the default returns: every compact field and detail=full."""
    for spec in CATALOGUE:
        if spec.answer is None:
            continue
        description = spec.handler.__doc__ or ""
        assert "detail=full" in description, spec.name
        for name, _ in spec.answer.paths:
            assert name in description, (spec.name, name)
