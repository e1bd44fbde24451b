"""about answers the facts of every key naming the subject (any spelling of it, a merged name),
the decisions whose rules watch them, and pages its lists. Real Neo4j."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from tests.support import call


async def test_about_lists_facts_and_watching_decisions_under_every_spelling(
    client: Client[Any],
) -> None:
    await call(client, "save_memory", project="p", title="t", content="ACME Corporation grew.")
    await call(client, "record_fact", project="p", key="ACME_Corp.ceo", value="Dana Park")
    await call(client, "record_fact", project="p", key="acme.hq", value="Lisbon")
    await call(client, "record_fact", project="p", key="acmeworks.hq", value="Porto")  # another
    rule = {"key": "acme_inc.hq", "operator": "equals", "value": "Porto"}
    decided = await call(
        client,
        "record_decision",
        project="p",
        title="Stay with Acme",
        choice="acme",
        alternatives=[{"title": "move", "why_rejected": "far", "reopen_when": [rule]}],
    )
    [acme] = (await call(client, "about", name="Acme"))["subjects"]
    assert sorted(f["key"] for f in acme["facts"]) == ["ACME_Corp.ceo", "acme.hq"]
    assert [d["id"] for d in acme["decisions"]] == [decided["decision"]["id"]]


async def test_about_pages_its_lists(client: Client[Any]) -> None:
    for n in range(5):
        await call(client, "save_memory", project="p", title=f"t{n}", content=f"Lee Wong: {n}.")
    first = await call(client, "about", name="Lee Wong", limit=3)
    assert len(first["subjects"][0]["memories"]) == 3 and first["next_offset"] == 3
    rest = await call(client, "about", name="Lee Wong", limit=3, offset=3)
    assert len(rest["subjects"][0]["memories"]) == 2 and rest["next_offset"] is None
    seen = {m["id"] for m in first["subjects"][0]["memories"] + rest["subjects"][0]["memories"]}
    assert len(seen) == 5
