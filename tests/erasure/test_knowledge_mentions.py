"""An erasure of a chunk or a claim takes the mentions of subjects they hold (a chunk's with its
claims'), and with them every name no other source holds, as for memories and turns."""

from __future__ import annotations

from typing import Any

from fastmcp import Client

from graphmem.store import Store
from graphmem.subjects.reading import reader_of
from tests.erasure.helpers import erase
from tests.subjects.test_reading import count, save, subjects
from tests.support import call

BODY = "ENRICH_OK Quentara Systems uses the Vellum gateway. Odalys Brennan met Kestrel Labs."


async def held(store: Store, tenant: str, word: str) -> list[Any]:
    """Every property of the tenant's nodes and relationships that holds ``word``."""
    records, _, _ = await store._driver.execute_query(  # test inspection: every property
        "MATCH (n) WHERE n.tenant = $tenant OPTIONAL MATCH (n)-[r]-() "
        "RETURN properties(n) AS p, properties(r) AS r",
        tenant=tenant,
    )
    return [r for r in records if word in f"{r['p']} {r['r']}".lower()]


async def test_an_erased_chunk_takes_its_and_its_claims_names(
    client: Client[Any], store: Store, tenant: str
) -> None:
    chunk = (await call(client, "add_context_chunk", project="p", body=BODY))["chunk"]
    extracted = await call(client, "extract_candidate_claims", chunk_ref=chunk["id"])
    assert extracted["claims_created"] >= 1
    await save(client, "Partner", "Kestrel Labs renewed the contract.")
    await reader_of(store).settle(tenant)
    before = await subjects(store, tenant)
    assert {"Quentara Systems", "Odalys Brennan", "Kestrel Labs"} <= set(before)
    erased = await erase(client, ids=[chunk["id"]])  # settles the pass first
    assert erased["counts"]["Mention"] >= 4, erased  # the chunk's three, its claim's one
    found = await subjects(store, tenant)
    assert "Quentara Systems" not in found and "Odalys Brennan" not in found
    assert found["Kestrel Labs"] == {"Kestrel Labs"}  # the memory still says it
    assert (
        await count(store, tenant, "(:Subject {name: 'Kestrel Labs'})<-[:NAMES]-(n:Mention)") == 1
    )
    assert await held(store, tenant, "quentara") == []
    assert await held(store, tenant, "odalys") == []
    assert (await call(client, "about", name="Quentara Systems"))["subjects"] == []


async def test_an_erased_claim_takes_only_its_own_mentions(
    client: Client[Any], store: Store, tenant: str
) -> None:
    chunk = (await call(client, "add_context_chunk", project="p", body=BODY))["chunk"]
    extracted = await call(client, "extract_candidate_claims", chunk_ref=chunk["id"])
    [claim] = [c for c in extracted["claims"] if c["predicate"] == "uses"]
    await reader_of(store).settle(tenant)
    assert await count(store, tenant, "(:Claim)-[:HAS_MENTION]->(n:Mention)") >= 1
    await erase(client, ids=[claim["claim_id"]])
    assert await count(store, tenant, "(:Claim)-[:HAS_MENTION]->(n:Mention)") == 0
    [quentara] = (await call(client, "about", name="Quentara Systems"))["subjects"]
    assert [c["id"] for c in quentara["chunks"]] == [chunk["id"]]  # the chunk still names it
    assert quentara["claims"] == [] and quentara["mentions"] == 1
