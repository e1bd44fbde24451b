"""Erased payloads and the chain: an erasure removes event payloads and the chain still
verifies, counting them; any other edit, a payload removed without an erasure, or a forged
erasure mark is still caught. Chains written before sealing (hash over the payload itself)
erase and verify the same way.

The attacker writes the database directly and knows everything but the history key.
"""

from __future__ import annotations

from typing import Any

import neo4j
from fastmcp import Client

from graphmem.core.keys import SCHEME, ChainKey
from graphmem.history.chain import GENESIS_HASH, event_hash
from graphmem.history.erasure import erase_payloads_naming
from graphmem.history.verification import verify_chain
from graphmem.history.write_path import Write, write
from graphmem.store import Store
from tests.support import call


async def _facts(client: Client[Any], count: int) -> list[str]:
    return [
        (await call(client, "record_fact", project="p", key=f"k{n}", value=f"v{n}"))["id"]
        for n in range(count)
    ]


async def _erase(store: Store, tenant: str, ids: list[str]) -> int:
    async def work(current: Write) -> int:
        revision = await current.record("erasure", "erasure-1", [], {"reason": "test"})
        return await erase_payloads_naming(current, ids, revision)

    return await write(store.of(tenant), "erase", work)


async def _events(driver: neo4j.AsyncDriver, tenant: str) -> list[dict[str, Any]]:
    records, _, _ = await driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) RETURN e ORDER BY e.revision", tenant=tenant
    )
    return [dict(record["e"]) for record in records]


async def test_an_erased_payload_verifies_and_is_counted(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    ids = await _facts(client, 3)
    assert await _erase(store, tenant, [ids[1]]) == 1
    events = await _events(raw_driver, tenant)
    erased = events[1]
    assert erased["erased_by"] == 4 and "payload_json" not in erased
    assert "payload_salt" not in erased and erased["payload_digest"]
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.erased_payloads == 1, verdict
    replayed = await call(client, "replay_memory", aggregate_id=ids[1])
    assert replayed["chain"]["verified"] is True
    assert [e["payload"] for e in replayed["events"]] == [{}]
    assert replayed["events"][0]["erased_by"] == 4
    assert await _erase(store, tenant, [ids[1]]) == 0  # the same erasure again: nothing


async def test_other_edits_are_still_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    ids = await _facts(client, 3)
    await _erase(store, tenant, [ids[0]])
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 3}) "
        "SET e.payload_json = replace(e.payload_json, 'v2', 'forged')",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 3


async def test_a_payload_removed_without_an_erasure_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _facts(client, 2)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 2}) REMOVE e.payload_json, e.payload_salt",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 2
    assert "without an erasure" in (verdict.reason or "")


async def test_a_forged_erasure_mark_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    ids = await _facts(client, 3)
    await _erase(store, tenant, [ids[0]])  # a real erasure at revision 4 to point at
    [first] = (await _events(raw_driver, tenant))[:1]
    await raw_driver.execute_query(  # its seal copied onto another event
        "MATCH (e:Event {tenant: $tenant, revision: 2}) "
        "SET e.erased_by = 4, e.erasure_seal = $seal, e.seal_key_id = $key_id "
        "REMOVE e.payload_json, e.payload_salt",
        tenant=tenant,
        seal=first["erasure_seal"],
        key_id=first["seal_key_id"],
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 2
    assert "seal" in (verdict.reason or "")


async def test_an_erased_event_edited_afterwards_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    ids = await _facts(client, 2)
    await _erase(store, tenant, [ids[0]])
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) SET e.op = 'govern_fact'", tenant=tenant
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 1


async def _rewrite_unsealed(driver: neo4j.AsyncDriver, tenant: str, key: ChainKey | None) -> None:
    """The chain as graphmem wrote it before sealing: hashes over the payload itself (plain
    SHA-256 without a key, as before keying)."""
    prev = GENESIS_HASH
    for event in await _events(driver, tenant):
        fields = (event["op"], event["at_text"], event["payload_json"], prev)
        digest = event_hash(tenant, event["revision"], *fields, key)
        await driver.execute_query(
            "MATCH (e:Event {tenant: $tenant, revision: $revision}) "
            "SET e.prev_hash = $prev, e.hash = $hash, e.hash_scheme = $scheme, e.key_id = $key_id "
            "REMOVE e.payload_digest, e.payload_salt",
            tenant=tenant,
            revision=event["revision"],
            prev=prev,
            hash=digest,
            scheme=SCHEME if key else None,
            key_id=key.key_id if key else None,
        )
        prev = digest
    await driver.execute_query(
        "MATCH (h:History {tenant: $tenant}) SET h.last_hash = $hash "
        "REMOVE h.checkpoint_revision, h.checkpoint_hash, h.checkpoint_mac, "
        "h.checkpoint_keyed_from",
        tenant=tenant,
        hash=prev,
    )


async def test_a_chain_written_before_sealing_erases_and_verifies(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    assert store.chain_key is not None
    ids = await _facts(client, 3)
    await _rewrite_unsealed(raw_driver, tenant, store.chain_key)
    assert (await verify_chain(store.of(tenant), full=True)).verified
    assert await _erase(store, tenant, [ids[1]]) == 1
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.erased_payloads == 1, verdict
    await raw_driver.execute_query(  # its time moved: only the seal covers it now
        "MATCH (e:Event {tenant: $tenant, revision: 2}) SET e.at_text = e.at_text + ' '",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 2


async def test_a_plain_seal_on_a_keyed_chain_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """Events written before keying (plain), then keyed ones and a keyed erasure. Whoever
    lacks the key erases a plain event with a plain seal (anyone can compute one) naming that
    erasure: the erasure it names is keyed, so the mark is a forgery."""
    from graphmem.history.chain import erasure_seal

    assert store.chain_key is not None
    await _facts(client, 3)
    await _rewrite_unsealed(raw_driver, tenant, None)  # plain, as before keying
    ids = await _facts(client, 2)  # keyed from revision 4
    await _erase(store, tenant, [ids[0]])  # a real, keyed erasure at revision 6
    assert (await verify_chain(store.of(tenant), full=True)).verified
    [event] = [e for e in await _events(raw_driver, tenant) if e["revision"] == 2]
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 2}) "
        "SET e.erased_by = 6, e.erasure_seal = $seal REMOVE e.payload_json",
        tenant=tenant,
        seal=erasure_seal(tenant, event, 6, None),
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 2, verdict


async def test_a_payload_put_back_into_an_erased_event_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    ids = await _facts(client, 2)
    await _erase(store, tenant, [ids[0]])
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) SET e.payload_json = '{\"made\": 1}'",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and "holds a payload" in (verdict.reason or "")
    replayed = await call(client, "replay_memory", aggregate_id=ids[0])
    assert replayed["events"][0]["payload"] == {}


async def test_an_erasure_mark_naming_no_erasure_is_caught(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """A real seal moved to name another revision (a keyed save, not an erasure)."""
    ids = await _facts(client, 3)
    await _erase(store, tenant, [ids[0]])
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) SET e.erased_by = 3", tenant=tenant
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and verdict.first_break_revision == 1
