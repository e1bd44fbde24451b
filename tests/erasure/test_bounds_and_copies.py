"""An erasure larger than a call's bound continues over dry runs; the counters live nodes
keep of what was erased follow; an export after an erasure imports with a chain that verifies
and none of the erased content."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.console.terminal import progress_bar
from graphmem.erasure import service
from graphmem.history.verification import verify_chain
from graphmem.store import Store
from graphmem.transfer.export import export_tenant
from graphmem.transfer.load import check_file, import_file
from tests.erasure.helpers import NEEDLE, PROJECT, erase, scan_tenant, write_the_probe
from tests.support import call


async def test_an_erasure_past_the_bound_continues(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "MAX_PER_CALL", 3)
    monkeypatch.setattr(service, "BATCH", 2)
    for n in range(5):
        await call(client, "save_memory", project="big", title=f"m{n}", content=f"note {n}")
    dry = await call(client, "erase", project="big")
    assert (dry["total"], dry["remaining"]) == (5, 2)
    first = await erase(client, project="big")
    assert (first["total"], first["remaining"], len(first["revisions"])) == (3, 2, 2)
    second = await erase(client, project="big")
    assert (second["total"], second["remaining"]) == (2, 0)
    assert (await call(client, "search", query="note"))["count"] == 0


async def _contradiction_count(driver: neo4j.AsyncDriver, tenant: str, fact_id: str) -> int:
    records, _, _ = await driver.execute_query(
        "MATCH (f:Fact {tenant: $tenant, id: $id}) RETURN f.contradiction_count AS n",
        tenant=tenant,
        id=fact_id,
    )
    return int(records[0]["n"] or 0)


async def test_counters_of_what_was_erased_follow(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    kept = await call(client, "record_fact", project="p", key="a", value=1)
    erased = await call(client, "record_fact", project="p", key="b", value=2)
    await call(
        client,
        "govern_fact",
        fact_id=erased["id"],
        action="contradict",
        target_fact_id=kept["id"],
        rationale="they disagree",
    )
    assert await _contradiction_count(raw_driver, tenant, kept["id"]) == 1
    await erase(client, ids=[erased["id"]])
    assert await _contradiction_count(raw_driver, tenant, kept["id"]) == 0


async def test_an_export_after_an_erasure_imports_and_verifies(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, tmp_path: Path
) -> None:
    await call(client, "record_fact", project="kept", key="k", value="stays")
    await write_the_probe(client)
    await erase(client, project=PROJECT)
    path = tmp_path / "export.jsonl"
    with progress_bar("exporting", None) as bar:
        await export_tenant(store, tenant, path, bar)
    copy = f"{tenant}-copy"
    try:
        with progress_bar("importing", None) as bar:
            await import_file(store, copy, path, check_file(path), bar)
        verdict = await verify_chain(store.of(copy), full=True)
        source = await verify_chain(store.of(tenant), full=True)
        assert verdict.verified and verdict.erased_payloads == source.erased_payloads > 0
        assert await scan_tenant(raw_driver, copy) == []
        assert NEEDLE not in path.read_text().lower()
    finally:
        await store.purge_tenant(copy)
