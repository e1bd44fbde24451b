"""A person answers the questions the pass asks (is this name that subject?): "same" merges,
"different" keeps them apart; each one event, an answered question refused. Real Neo4j."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from tests.support import call, call_error, revision


async def asked(client: Client[Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Two names the pass could not join alone: the question, and the two subjects."""
    for content in ("Giulia Marchetti wrote the review.", "J. Marchetti answered the editor."):
        await call(client, "save_memory", project="p", title="t", content=content)
    j = (await call(client, "about", name="J. Marchetti"))["subjects"][0]
    giulia = (await call(client, "about", name="Giulia Marchetti"))["subjects"][0]
    [question] = j["questions"]
    assert question["other_id"] == giulia["id"]
    return question, j, giulia


async def test_same_merges_the_two_and_settles_the_question(client: Client[Any]) -> None:
    question, j, giulia = await asked(client)
    answer = await call(
        client, "answer_subject_question", question_id=question["id"], same=True, reason="author"
    )
    assert (answer["answer"], answer["merged_into"]) == ("same", giulia["id"])
    [group] = (await call(client, "about", name="J. Marchetti"))["subjects"]
    assert group["id"] == giulia["id"] and group["questions"] == []
    assert {m["id"] for m in group["members"]} == {j["id"], giulia["id"]}
    again = await call_error(
        client, "answer_subject_question", question_id=question["id"], same=False, reason="r"
    )
    assert again["error"] == "invalid_state"
    await call(client, "split_subject", subject_id=j["id"], reason="undo")  # as any merge
    assert (await call(client, "about", name="J. Marchetti"))["subjects"][0]["id"] == j["id"]


async def test_different_keeps_them_apart_in_one_event(client: Client[Any]) -> None:
    question, j, giulia = await asked(client)
    before = await revision(client)
    answer = await call(
        client, "answer_subject_question", question_id=question["id"], same=False, reason="two"
    )
    assert (answer["answer"], answer["merged_into"], answer["revision"]) == (
        "different",
        None,
        before + 1,
    )
    for name, subject in (("J. Marchetti", j), ("Giulia Marchetti", giulia)):
        [alone] = (await call(client, "about", name=name))["subjects"]
        assert alone["id"] == subject["id"] and alone["questions"] == []
    replay = await call(client, "replay_memory", limit=1)
    assert replay["events"][0]["event_type"] == "answer_subject_question"
    assert replay["chain"]["verified"] is True


async def test_an_unknown_question_is_not_found_and_changes_nothing(client: Client[Any]) -> None:
    before = await revision(client)
    missing = await call_error(
        client,
        "answer_subject_question",
        question_id="01a22918-0000-7000-8000-000000000001",
        same=True,
        reason="r",
    )
    assert missing["error"] == "not_found" and await revision(client) == before
    bad = await call_error(client, "answer_subject_question", question_id="q", same="maybe")
    assert bad["error"] == "invalid_argument"
