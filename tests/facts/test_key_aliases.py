"""One subject under two names is one truth: fact keys whose subject parts name one subject the
memory knows (its spellings, or names merged with merge_subjects) resolve as one in current_state,
a differing value under another name is an unresolved conflict governed as any contradiction,
and a reopen rule hears of a write under any of the subject's names. Real Neo4j."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from graphmem.core.clock import utc_now
from graphmem.store import Store
from graphmem.subjects.reading import reader_of
from tests.support import call

RULE = {"key": "acme.ceo", "operator": "not_equals", "value": "Dana Park"}


async def fact(client: Client[Any], key: str, value: Any, project: str = "p") -> dict[str, Any]:
    return await call(client, "record_fact", project=project, key=key, value=value)


async def state(client: Client[Any], key: str, **more: Any) -> dict[str, Any]:
    return await call(client, "current_state", state_key=key, project="p", **more)


async def known(client: Client[Any], content: str = "ACME Corporation moved.") -> None:
    """A memory that makes its names subjects the memory knows (about settles the pass)."""
    await call(client, "save_memory", project="p", title="t", content=content)
    await call(client, "about", name="Acme")


async def test_keys_join_only_through_a_subject_the_memory_knows(client: Client[Any]) -> None:
    await fact(client, "my.name", "Ada")
    await fact(client, "my_company.name", "Initech")  # "my" is nobody: two keys
    assert (await state(client, "my.name"))["aliases"] == []
    await fact(client, "acme.ceo", "Dana Park")
    assert (await state(client, "ACME_Corp.ceo"))["status"] == "not_found"  # Acme unknown yet
    await known(client)
    joined = await state(client, "ACME_Corp.ceo")
    assert (joined["status"], joined["aliases"]) == ("current", ["acme.ceo"])


async def test_the_asked_key_answers_however_many_spellings_sort_before_it(
    client: Client[Any],
) -> None:
    await known(client)
    asked = await fact(client, "acme.ceo", "Dana Park")
    # more spellings than the read's bound (50), all sorting before "acme.ceo"
    for suffix in ("corp", "inc", "ltd", "llc", "co", "plc", "gmbh", "ag"):
        for separator in ("_", "-", "__", "--", "_-", "-_", "___"):
            await fact(client, f"ACME{separator}{suffix}.ceo", "X")
    answer = await state(client, "acme.ceo")
    assert answer["answer"]["id"] == asked["id"] and answer["status"] == "unresolved_conflict"


async def test_keys_of_one_subject_answer_alike_and_a_differing_value_is_a_conflict(
    client: Client[Any],
) -> None:
    await known(client)
    dana = await fact(client, "acme.ceo", "Dana Park")
    alone = await state(client, "ACME_Corp.ceo")  # only the other spelling holds a fact
    assert (alone["status"], alone["answer"]["id"]) == ("current", dana["id"])
    assert alone["aliases"] == ["acme.ceo"]
    assert (await state(client, "acme.cfo"))["status"] == "not_found"  # another attribute

    lee = await fact(client, "acme_corp.ceo", "Lee Wong")
    for key, own in (("acme.ceo", dana), ("acme_corp.ceo", lee)):
        conflict = await state(client, key)
        assert conflict["status"] == "unresolved_conflict"
        assert conflict["answer"]["id"] == own["id"]  # the key asked for answers first
        other = lee if own is dana else dana
        assert [(w["type"], w["to_id"]) for w in conflict["why"]] == [("contradicts", other["id"])]
    assert (await state(client, "globex.ceo"))["status"] == "not_found"
    then = await state(client, "acme_corp.ceo", known_at=utc_now().isoformat())
    assert (then["status"], then["aliases"]) == ("unresolved_conflict", ["acme.ceo"])

    # Governed as any contradiction: the person decides, the conflict ends for both names.
    await call(
        client,
        "govern_fact",
        fact_id=dana["id"],
        action="supersede",
        target_fact_id=lee["id"],
        rationale="Lee took over",
    )
    for key in ("acme.ceo", "acme_corp.ceo"):
        settled = await state(client, key)
        assert (settled["status"], settled["answer"]["id"]) == ("current", lee["id"])


async def test_equal_values_under_two_names_are_no_conflict_and_projects_stay_apart(
    client: Client[Any],
) -> None:
    await known(client)
    await fact(client, "acme.hq", "Lisbon")
    await fact(client, "Acme Inc.hq", "Lisbon")
    await fact(client, "acme_corp.hq", "Porto", project="other")
    agreed = await state(client, "acme.hq")
    assert (agreed["status"], agreed["answer"]["value"]) == ("current", "Lisbon")
    assert agreed["aliases"] == ["Acme Inc.hq"]
    # Without a project the owners holding a fact are asked for, whatever the spelling.
    anywhere = await call(client, "current_state", state_key="acme.hq")
    assert anywhere["status"] == "ambiguous" and len(anywhere["candidates"]) == 2


async def test_merged_names_are_one_subjects_keys_until_split(client: Client[Any]) -> None:
    await call(client, "save_memory", project="p", title="t", content="x", about=["Dana Park"])
    await call(client, "save_memory", project="p", title="t", content="y", about=["Dee Park"])
    dana = (await call(client, "about", name="Dana Park"))["subjects"][0]
    dee = (await call(client, "about", name="Dee Park"))["subjects"][0]
    await fact(client, "dana_park.role", "CEO")
    await fact(client, "dee_park.role", "CTO")
    assert (await state(client, "dee_park.role"))["status"] == "current"  # two people

    await call(client, "merge_subjects", subject_id=dee["id"], into_id=dana["id"], reason="same")
    merged = await state(client, "dee_park.role")
    assert merged["status"] == "unresolved_conflict" and merged["aliases"] == ["dana_park.role"]
    assert merged["answer"]["value"] == "CTO"

    await call(client, "split_subject", subject_id=dee["id"], reason="two people after all")
    parted = await state(client, "dee_park.role")
    assert (parted["status"], parted["aliases"]) == ("current", [])


async def test_a_reopen_rule_hears_of_a_write_under_another_name(client: Client[Any]) -> None:
    await known(client)
    await fact(client, "acme.ceo", "Dana Park")
    decided = await call(
        client,
        "record_decision",
        project="p",
        title="Partner with Acme",
        choice="acme",
        alternatives=[{"title": "globex", "why_rejected": "Dana runs Acme", "reopen_when": [RULE]}],
    )
    [rule] = [r for a in decided["decision"]["alternatives"] for r in a["rules"]]
    assert rule["verdict"] == "false"

    # A second name with another value: the rule is re-evaluated and sees both (unknown, as
    # for any contradiction), and no signal opens on conflicting evidence.
    conflicting = await fact(client, "acme_corp.ceo", "Lee Wong")
    assert conflicting["review_signals"] == []
    review = await call(client, "review_decisions", project="p")
    assert [(d["key"], d["reason"]) for d in review["diagnostics"]] == [
        ("acme.ceo", "conflicting_evidence")
    ]

    # The first name's fact withdrawn: the other name answers, the rule breaches, a signal opens.
    dana = (await state(client, "acme.ceo"))["answer"]
    invalidated = await call(client, "govern_fact", fact_id=dana["id"], action="invalidate")
    [signal] = invalidated["review_signals"]
    assert signal["decision_id"] == decided["decision"]["id"]


async def test_keys_written_before_subjects_were_stored_are_named_once(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await fact(client, "acme.ceo", "Dana Park")
    await fact(client, "ACME_Corp.ceo", "Lee Wong")
    await store._driver.execute_query(  # test setup: keys as an older release wrote them
        "MATCH (k:FactKey {tenant: $tenant}) REMOVE k.subject, k.attribute "
        "WITH DISTINCT k.tenant AS t MATCH (l:SubjectLedger {tenant: t}) "
        "REMOVE l.keys_done, l.keys_walked",
        tenant=tenant,
    )
    await call(client, "save_memory", project="p", title="t", content="ACME Corporation grew.")
    await reader_of(store).settle(tenant)  # the pass walks the keys as it reads the memory
    joined = await state(client, "acme.ceo")
    assert (joined["status"], joined["aliases"]) == ("unresolved_conflict", ["ACME_Corp.ceo"])
