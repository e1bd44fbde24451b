"""Schema application, the catalog against a real database, and store error translation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from graphmem.core.errors import StoreAuthFailed, StoreUnavailable
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint, free_port, in_worker_thread, managed_local
from tests.store.test_catalog import PEER_STATEMENTS

SERVERS_AT_ONCE = 3


async def test_schema_applies_twice_without_change(store: Store) -> None:
    await store.apply_schema()
    assert await store.apply_schema() == []  # stamped: nothing to apply (test_schema_stamp.py)
    constraints = await store.schema_state()
    names = {row["name"] for row in constraints}
    assert all(row["state"] == "ONLINE" for row in constraints)
    assert {"fact_tenant_id_unique", "fact_key_owner_unique", "event_revision_unique"} <= names


@pytest.mark.managed  # a database no schema was ever applied to
async def test_servers_starting_at_once_on_a_fresh_database_all_apply_the_schema(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    if neo4j_endpoint.local_settings is None:
        pytest.skip("needs the jars of the managed local Neo4j")
    async with in_worker_thread(managed_local(tmp_path / "neo4j")) as fresh:
        stores = [
            await Store.connect(fresh.uri, fresh.user, fresh.password)
            for _ in range(SERVERS_AT_ONCE)
        ]
        try:
            applied = await asyncio.gather(*(store.apply_schema() for store in stores))
            expected = [q.name for q in stores[0].catalog.under("schema")]
            # each applied it all, or found it stamped by another that finished first
            assert all(result in (expected, []) for result in applied) and expected in applied
            state = await stores[0].schema_state()
            assert state and all(row["state"] == "ONLINE" for row in state)
            assert {"fact_tenant_id_unique", "event_revision_unique"} <= {r["name"] for r in state}
            assert "fact_by_expiry" not in {row["name"] for row in state}  # dropped by 108
        finally:
            for store in stores:
                await store.close()


async def test_every_catalog_query_plans_on_the_real_database(store: Store) -> None:
    for name in store.catalog.names():
        if name.startswith("schema/") or name == "store/await_indexes":
            continue
        assert await store.explain(name)


async def test_wrong_credentials_give_a_clear_error(neo4j_endpoint: Endpoint) -> None:
    with pytest.raises(StoreAuthFailed, match="refused the credentials of user 'neo4j'"):
        await Store.connect(neo4j_endpoint.uri, "neo4j", "wrong-password", connect_timeout=5)


async def test_unreachable_uri_gives_a_clear_error() -> None:
    uri = f"bolt://127.0.0.1:{free_port()}"
    with pytest.raises(StoreUnavailable, match=f"cannot reach Neo4j at {uri}"):
        await Store.connect(uri, "neo4j", "whatever", connect_timeout=1)


async def test_malformed_uri_gives_a_clear_error() -> None:
    with pytest.raises(StoreUnavailable, match="is not a valid Neo4j URI"):
        await Store.connect("http://127.0.0.1:7687", "neo4j", "whatever", connect_timeout=1)


async def test_store_calls_require_a_tenant(store: Store) -> None:
    with pytest.raises(ValueError, match="tenant"):
        await store.read(
            "facts/get_current_state", "", key="k", project=None, history_limit=1, project_limit=1
        )


async def test_no_query_scans_a_whole_label(store: Store) -> None:
    """Performance by construction: every lookup starts from an index, never a scan."""
    exempt = {
        "store/delete_tenant_data",  # test and purge utility, deliberately label-less
        # its label is the write-behind queue itself: the scan touches only waiting memories
        "retrieval/list_unindexed_memories",
        # an operator command over the whole database: one History node per tenant
        "store/list_tenants",
    } | PEER_STATEMENTS  # the peer's database, read whole in pages: graphmem adds no index there
    for name in store.catalog.names():
        if name.startswith("schema/") or name == "store/await_indexes" or name in exempt:
            continue
        scans = [op for op in await store.explain(name) if "Scan" in op]
        assert scans == [], f"{name} plans {scans}"
