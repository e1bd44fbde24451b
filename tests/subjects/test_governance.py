"""about, merge_subjects and split_subject against a real Neo4j: what is known under any
spelling, merges a person decides (events in the chain), and splits that restore exactly."""

from __future__ import annotations

import itertools
from typing import Any

from fastmcp import Client

from graphmem.store import Store
from tests.support import call, call_error

SESSION = {"project": "p", "session_ref": "s-1", "host": "laptop", "source_root": "claude"}


async def save(client: Client[Any], content: str, **more: Any) -> dict[str, Any]:
    return (await call(client, "save_memory", project="p", title="t", content=content, **more))[
        "memory"
    ]


async def about(client: Client[Any], name: str) -> dict[str, Any]:
    return await call(client, "about", name=name)


async def test_about_answers_under_any_spelling_with_memories_turns_and_facts(
    client: Client[Any],
) -> None:
    memory = await save(client, "ACME Corporation moved to Lisbon.")
    await call(
        client,
        "archive_turns",
        **SESSION,
        turns=[{"role": "user", "content": "Acme Corp hired Dana.", "ts": "2024-03-01T10:00:00Z"}],
    )
    await call(client, "record_fact", project="p", key="acme.ceo", value="Dana Park")
    answer = await about(client, "acme corp")
    [subject] = answer["subjects"]
    assert subject["aliases"] == ["ACME Corporation"] and subject["mentions"] == 2
    assert [m["id"] for m in subject["memories"]] == [memory["id"]]
    assert [t["content"] for t in subject["turns"]] == ["Acme Corp hired Dana."]
    assert [(f["key"], f["value"]) for f in subject["facts"]] == [("acme.ceo", "Dana Park")]
    assert (await about(client, "Nobody Known"))["subjects"] == []


async def test_a_merge_joins_two_names_and_a_split_restores_them_exactly(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await save(client, "Giulia Marchetti wrote the review.")
    await save(client, "J. Marchetti answered the editor.")
    giulia = (await about(client, "Giulia Marchetti"))["subjects"][0]
    j = (await about(client, "J. Marchetti"))["subjects"][0]
    assert giulia["id"] != j["id"]
    assert [q["other_id"] for q in j["questions"]] == [giulia["id"]]  # asked, not merged
    before = (await about(client, "J. Marchetti"))["subjects"][0]

    merged = await call(
        client, "merge_subjects", subject_id=j["id"], into_id=giulia["id"], reason="same author"
    )
    assert merged["into_id"] == giulia["id"] and merged["settled_questions"] == 1
    for name in ("J. Marchetti", "Giulia Marchetti"):
        [group] = (await about(client, name))["subjects"]
        assert group["id"] == giulia["id"]
        assert set(group["aliases"]) == {"Giulia Marchetti", "J. Marchetti"}
        assert group["mentions"] == 2 and group["questions"] == []

    split = await call(client, "split_subject", subject_id=j["id"], reason="two people after all")
    assert split["was_merged_into"] == giulia["id"]
    after = (await about(client, "J. Marchetti"))["subjects"][0]
    assert {k: v for k, v in after.items() if k != "questions"} == {
        k: v for k, v in before.items() if k != "questions"
    }
    replay = await call(client, "replay_memory")  # newest first
    assert [e["event_type"] for e in replay["events"]][:2] == ["split_subject", "merge_subjects"]
    assert replay["chain"]["verified"] is True


async def test_bad_merges_and_splits_are_refused_and_change_nothing(client: Client[Any]) -> None:
    await save(client, "Dana Park met Lee Wong.")
    dana = (await about(client, "Dana Park"))["subjects"][0]["id"]
    lee = (await about(client, "Lee Wong"))["subjects"][0]["id"]
    revision = (await call(client, "replay_memory"))["events"][0]["revision"]
    refused = [
        await call_error(client, "merge_subjects", subject_id=dana, into_id=dana, reason="r"),
        await call_error(client, "merge_subjects", subject_id=dana, into_id="nope", reason="r"),
        await call_error(client, "split_subject", subject_id=dana, reason="r"),
        await call_error(client, "split_subject", subject_id="nope", reason="r"),
        await call_error(client, "about", name="x" * 201),
        await call_error(client, "about", name="line\nbreak"),
    ]
    assert [r["error"] for r in refused] == [
        "invalid_argument",
        "not_found",
        "invalid_state",
        "not_found",
        "invalid_argument",
        "invalid_argument",
    ]
    await call(client, "merge_subjects", subject_id=dana, into_id=lee, reason="test")
    again = await call_error(client, "merge_subjects", subject_id=lee, into_id=dana, reason="r")
    assert again["error"] == "invalid_state"  # one group already: no circle
    replay = await call(client, "replay_memory")
    assert [e["revision"] for e in replay["events"] if e["revision"] > revision] == [revision + 1]
    assert replay["chain"]["verified"] is True


async def test_the_browser_guide_shows_a_subject_and_its_merges(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await save(client, "Giulia Marchetti wrote it. Acme Corp printed it.")
    await save(client, "J. Marchetti signed.")
    giulia = (await about(client, "Giulia Marchetti"))["subjects"][0]["id"]
    j = (await about(client, "J. Marchetti"))["subjects"][0]["id"]
    await call(client, "merge_subjects", subject_id=j, into_id=giulia, reason="one author")
    rows = await store.read("browser/show_subject", tenant, subject="Giulia Marchetti")
    shown = {str(row["s"]["name"]) for row in rows if isinstance(row["s"], dict)}
    assert shown == {"Giulia Marchetti"}
    merges = await store.read("browser/list_subject_merges", tenant)
    assert [(m["reason"], m["actor"]) for m in merges] == [("one author", None)]
    assert await store.read("browser/list_subject_merges", "someone-else") == []


async def test_no_chain_of_merges_however_long_closes_a_circle(client: Client[Any]) -> None:
    names = [f"Kestrel Unit{n}" for n in range(36)]
    await save(client, " ".join(f"{name} reported." for name in names[:18]))
    await save(client, " ".join(f"{name} reported." for name in names[18:]))
    ids = [(await about(client, name))["subjects"][0]["id"] for name in names]
    for lower, upper in itertools.pairwise(ids):
        await call(client, "merge_subjects", subject_id=lower, into_id=upper, reason="chain")
    refused = await call_error(
        client, "merge_subjects", subject_id=ids[-1], into_id=ids[0], reason="circle"
    )
    assert refused["error"] == "invalid_state"
    [group] = (await about(client, names[0]))["subjects"]
    assert group["id"] == ids[-1] and len(group["members"]) == 36
