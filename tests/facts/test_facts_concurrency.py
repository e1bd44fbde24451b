"""Concurrent writers on one key: one active fact, one linear chain, gap-free revisions."""

from __future__ import annotations

import asyncio
from typing import Any

from fastmcp import Client

from tests.support import call

WRITERS = 50


async def test_fifty_concurrent_writes_on_one_key(client: Client[Any]) -> None:
    results = await asyncio.gather(
        *(call(client, "record_fact", project="p", key="hot", value=i) for i in range(WRITERS))
    )
    assert sorted(r["revision"] for r in results) == list(range(1, WRITERS + 1))

    state = await call(client, "current_state", state_key="hot", project="p", history_limit=WRITERS)
    assert state["status"] == "current"
    facts = [state["answer"], *state["history"]]
    assert len(facts) == WRITERS
    assert {f["value"] for f in facts} == set(range(WRITERS))
    assert [f["status"] for f in state["history"]] == ["superseded"] * (WRITERS - 1)

    # SUPERSEDES forms one linear chain from the active fact through every other one.
    successor = {w["to_id"]: w["from_id"] for w in state["why"] if w["type"] == "supersedes"}
    predecessor = {newer: older for older, newer in successor.items()}
    assert len(successor) == WRITERS - 1 == len(predecessor)
    chain = [state["answer"]["id"]]
    while chain[-1] in predecessor:
        chain.append(predecessor[chain[-1]])
    assert len(chain) == WRITERS and len(set(chain)) == WRITERS
    # The chain order is the commit order: each fact superseded the one committed before it.
    by_id = {r["id"]: r for r in results}
    revisions = [by_id[fact_id]["revision"] for fact_id in chain]
    assert revisions == sorted(revisions, reverse=True)
    assert all(by_id[newer]["superseded_id"] == older for newer, older in predecessor.items())

    replay = await call(client, "replay_memory", limit=500)
    assert replay["count"] == WRITERS and replay["chain"]["verified"] is True
