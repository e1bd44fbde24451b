"""Erasure reaches every copy: a probe written through every tool that stores text is, after
its project is erased, in no read path, no export, no Browser slide and no property of the
tenant; the chain verifies before and after (counting the erased payloads) and still catches
an edit; another tenant holding the same probe keeps all of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import neo4j
from fastmcp import Client

from graphmem.browser.guide import SLIDES
from graphmem.history.verification import verify_chain
from graphmem.store import Store
from tests.erasure.helpers import (
    NEEDLE,
    PROBE,
    PROJECT,
    confirm,
    exported,
    holding_the_probe,
    reads,
    scan_tenant,
    write_the_probe,
)
from tests.support import call, call_error


async def _erase_project(client: Client[Any]) -> dict[str, Any]:
    dry = await call(client, "erase", project=PROJECT)
    assert dry["dry_run"] and dry["total"] > 10 and dry["sample"], dry
    done = await confirm(client, dry, project=PROJECT)
    assert done["total"] == dry["total"] and done["counts"] == dry["counts"], done
    return done


async def _slides_holding_the_probe(store: Store, tenant: str, ids: dict[str, Any]) -> list[str]:
    parameters = {
        "tenant": tenant,
        "project": PROJECT,
        "key": "probe.key",
        "topic_key": "probe-topic",
        "session_ref": "probe-session",
        "id": ids["decision"],
        "subject": PROBE,  # a name: the guide's subject slide finds nothing of it after
    }
    found = []
    for slide in SLIDES:
        records, _, _ = await store._driver.execute_query(  # as the Browser runs it
            store.catalog[slide.query].text, parameters, database_=store.database
        )
        if NEEDLE in str([record.data() for record in records]).lower():
            found.append(slide.query)
    return found


async def test_an_erased_project_is_nowhere_and_the_chain_verifies(
    client: Client[Any],
    other_client: Client[Any],
    store: Store,
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    tmp_path: Path,
) -> None:
    ids = await write_the_probe(client)
    other_ids = await write_the_probe(other_client)
    other_before = holding_the_probe(await reads(other_client, other_ids))
    before = await reads(client, ids)
    assert {"search", "search_raw", "current_state", "replay", "bundle"} <= set(
        holding_the_probe(before)
    )
    assert await scan_tenant(raw_driver, tenant) and NEEDLE in await exported(
        store, tenant, tmp_path
    )
    assert (await verify_chain(store.of(tenant), full=True)).verified

    done = await _erase_project(client)
    assert done["event_payloads"] > 10 and done["revisions"]

    assert holding_the_probe(await reads(client, ids)) == []
    assert await scan_tenant(raw_driver, tenant) == []
    assert NEEDLE not in await exported(store, tenant, tmp_path)
    assert await _slides_holding_the_probe(store, tenant, ids) == []
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.erased_payloads == done["event_payloads"], verdict
    replayed = await call(client, "replay_memory")
    assert replayed["chain"]["verified"] is True

    # the other tenant's probe is where it was, every read of it
    assert holding_the_probe(await reads(other_client, other_ids)) == other_before


async def test_the_same_erasure_twice_is_a_no_op(client: Client[Any]) -> None:
    ids = await write_the_probe(client)
    done = await _erase_project(client)
    again = await confirm(client, done, project=PROJECT)
    assert again["total"] == 0 and again["revisions"] == []
    assert (await call_error(client, "get_observations", ids=[ids["memory"]]))["error"] == (
        "not_found"
    )


async def test_a_selection_that_changed_since_its_dry_run_is_refused(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await write_the_probe(client)
    dry = await call(client, "erase", project=PROJECT)
    await call(client, "save_memory", project=PROJECT, title="late", content="written after")
    refused = await call_error(
        client,
        "erase",
        project=PROJECT,
        dry_run=False,
        confirm_destructive=True,
        reason="r",
        expected_fingerprint=dry["fingerprint"],
    )
    assert refused["error"] == "conflict" and "dry run" in refused["message"]
    assert await scan_tenant(raw_driver, tenant)  # nothing erased


async def test_an_edit_after_an_erasure_is_still_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await call(client, "record_fact", project="kept", key="k", value="v")
    await write_the_probe(client)
    await _erase_project(client)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) "
        "SET e.payload_json = replace(e.payload_json, 'kept', 'forged')",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 1
