"""The keyed chain: HMAC under a key outside the database, checkpoints, anchors, and verdicts
that tell a missing or wrong key from tampering.

The attacker here writes the database directly (the Neo4j driver, as anyone with database
credentials could) and knows everything but the history key.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.core.errors import ConfigurationError
from graphmem.core.keys import SCHEME, ChainKey, load_or_create
from graphmem.history import verification
from graphmem.history.chain import GENESIS_HASH, event_hash, payload_digest
from graphmem.history.rows import HeadRow
from graphmem.history.verification import Anchor, verify_chain
from graphmem.store import Store, shaped
from tests.app.helpers import assert_one_clear_line, clean_env, run_cli
from tests.history.helpers import key_file_of
from tests.neo4j_endpoint import Endpoint
from tests.support import call, call_error

# --- the key file ---------------------------------------------------------------------------


def test_a_new_key_file_is_created_for_the_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "history.key"
    key = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create(path) == key and len(key.secret) == 32
    assert key.key_id not in path.read_text() and key.secret.hex() not in repr(key)


def test_processes_starting_together_share_one_key(tmp_path: Path) -> None:
    path = tmp_path / "history.key"
    keys: list[ChainKey] = []
    threads = [threading.Thread(target=lambda: keys.append(load_or_create(path))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({key.secret for key in keys}) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["history.key"]  # no partial file left


@pytest.mark.parametrize(("mode", "content"), [(0o644, "ab" * 32), (0o600, "not hex")])
def test_a_key_file_others_can_read_or_that_is_not_a_key_is_refused(
    tmp_path: Path, mode: int, content: str
) -> None:
    path = tmp_path / "history.key"
    path.write_text(content)
    os.chmod(path, mode)
    with pytest.raises(ConfigurationError, match="history key file"):
        load_or_create(path)


# --- verdicts -------------------------------------------------------------------------------


@contextmanager
def keyed_with(store: Store, key: ChainKey | None) -> Iterator[None]:
    """The server writing and checking with another key (or none) for a while."""
    kept = store.chain_key
    store.chain_key = key
    try:
        yield
    finally:
        store.chain_key = kept


async def _writes(client: Client[Any], count: int, start: int = 0) -> None:
    for value in range(start, start + count):
        await call(client, "record_fact", project="p", key="k", value=value)


async def test_events_are_keyed_and_name_their_key(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _writes(client, 3)
    records, _, _ = await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) RETURN e.hash_scheme AS s, e.key_id AS k", tenant=tenant
    )
    assert store.chain_key is not None
    assert {(r["s"], r["k"]) for r in records} == {(SCHEME, store.chain_key.key_id)}
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["status"] == "verified" and chain["keyed_from_revision"] == 1


async def test_a_suffix_rewritten_with_plain_hashes_is_tampering(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """Without the key, the attacker recomputes plain hashes for a rewritten suffix, links
    and head included: the chain is keyed from revision 1, so revision 2 gives it away."""
    await _writes(client, 3)
    await _rewrite_plain(raw_driver, tenant, from_revision=2)
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["status"] == "tampered" and chain["first_break_revision"] == 2
    assert "not keyed" in chain["reason"]


async def test_a_whole_chain_rewritten_plain_is_caught_by_the_anchor(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """Rewritten from the first event, checkpoint removed, the chain reads as one written
    before keying: only the head kept elsewhere tells."""
    await _writes(client, 3)
    [head] = shaped(HeadRow, await store.read("history/get_head", tenant))
    assert head["last_hash"] is not None
    anchor = Anchor(head["revision"], head["last_hash"])
    assert (await verify_chain(store.of(tenant), anchor=anchor)).status == "verified"
    await _rewrite_plain(raw_driver, tenant, from_revision=1)
    assert (await verify_chain(store.of(tenant))).status == "tampered"  # the checkpoint tells
    await raw_driver.execute_query(  # ... unless the attacker also removes it
        "MATCH (h:History {tenant: $tenant}) REMOVE h.checkpoint_revision, h.checkpoint_hash, "
        "h.checkpoint_keyed_from, h.checkpoint_mac, h.checkpoint_key_id, h.key_id",
        tenant=tenant,
    )
    assert (await verify_chain(store.of(tenant))).status == "verified"  # the documented limit
    verdict = await verify_chain(store.of(tenant), anchor=anchor)
    assert verdict.status == "anchor_mismatch" and verdict.first_break_revision == 3
    beyond = await verify_chain(store.of(tenant), anchor=Anchor(9, anchor.hash))
    assert beyond.status == "anchor_mismatch" and "beyond the head" in (beyond.reason or "")


async def test_a_missing_or_wrong_key_is_said_so_never_tampering(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await _writes(client, 2)
    with keyed_with(store, None):
        missing = await verify_chain(store.of(tenant))
    with keyed_with(store, ChainKey(b"\x01" * 32)):
        wrong = await verify_chain(store.of(tenant))
    assert (missing.status, missing.verified) == ("key_missing", False)
    assert (wrong.status, wrong.verified) == ("key_mismatch", False)
    assert store.chain_key is not None and store.chain_key.key_id not in (wrong.reason or "")[:50]
    assert (await verify_chain(store.of(tenant))).status == "verified"


async def test_a_chain_keyed_midway_verifies_from_where_keying_began(
    client: Client[Any], store: Store, tenant: str
) -> None:
    with keyed_with(store, None):  # written before the history key existed
        await _writes(client, 2)
    await _writes(client, 2, start=2)
    verdict = await verify_chain(store.of(tenant))
    assert verdict.status == "verified" and verdict.keyed_from_revision == 3
    # each refused, though this process saw the head last: the one-statement writes (the
    # fact's key recorded here last, a new memory) check the head's key as lock_head does
    late = [("record_fact", {"project": "p", "key": "k", "value": "late"})]
    late.append(("save_memory", {"project": "p", "title": "late", "content": "too late"}))
    written = 4
    for other in (None, ChainKey(b"\x02" * 32)):  # a server without the key, or another key
        for tool, arguments in late:
            await _writes(client, 1, start=written)  # with the key: the head seen here last
            written += 1
            with keyed_with(store, other):
                refused = await call_error(client, tool, **arguments)
            assert refused["error"] == "store_unavailable" and refused["retryable"] is False
            assert "history key" in refused["message"]
    assert (await verify_chain(store.of(tenant))).head_revision == written  # none refused wrote


async def test_an_ordinary_check_reads_only_the_events_since_the_checkpoint(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _writes(client, 4)
    first = await verify_chain(store.of(tenant))
    assert (first.checked_from_revision, first.checked_events) == (0, 4)
    assert (await verify_chain(store.of(tenant), full=True)).complete  # moves the checkpoint
    await _writes(client, 2, start=4)
    since = await verify_chain(store.of(tenant))
    assert (since.verified, since.checked_from_revision, since.checked_events) == (True, 4, 2)
    await raw_driver.execute_query(
        "MATCH (h:History {tenant: $tenant}) SET h.checkpoint_revision = 6", tenant=tenant
    )
    forged = await verify_chain(store.of(tenant))  # its MAC no longer holds
    assert forged.status == "tampered" and "checkpoint" in (forged.reason or "")


async def test_a_full_check_is_held_to_the_checkpoint(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """Keyed midway, checkpointed, then the keyed part rewritten with plain hashes: read from
    the first event it would pass as written before keying, but the checkpoint says keying had
    begun, and which hash the head had."""
    with keyed_with(store, None):
        await _writes(client, 2)
    await _writes(client, 2, start=2)
    assert (await verify_chain(store.of(tenant), full=True)).status == "verified"
    await _rewrite_plain(raw_driver, tenant, from_revision=3)
    full = await verify_chain(store.of(tenant), full=True)
    assert full.status == "tampered" and full.first_break_revision == 3, full
    ordinary = await verify_chain(store.of(tenant))  # from the checkpoint: the head moved
    assert ordinary.status == "tampered" and ordinary.first_break_revision == 4, ordinary


async def test_events_removed_from_the_top_behind_the_checkpoint_are_tampering(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _writes(client, 4)
    assert (await verify_chain(store.of(tenant), full=True)).complete
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) WHERE e.revision > 2 DETACH DELETE e "
        "WITH count(*) AS removed MATCH (h:History {tenant: $tenant}) "
        "MATCH (last:Event {tenant: $tenant, revision: 2}) "
        "SET h.revision = 2, h.last_hash = last.hash",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "tampered" and "behind the verified checkpoint" in (
        verdict.reason or ""
    )


async def test_a_forged_key_id_does_not_hide_tampering(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _writes(client, 3)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) "
        "SET e.key_id = 'feedfeedfeedfeed', e.payload_json = e.payload_json + ' '",
        tenant=tenant,
    )
    verdict = await verify_chain(store.of(tenant))
    assert verdict.status == "tampered" and verdict.first_break_revision == 1


async def test_pages_and_the_genesis_anchor(
    client: Client[Any], store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verification, "PAGE", 2)  # five events over three pages
    assert (await verify_chain(store.of(tenant), anchor=Anchor(0, GENESIS_HASH))).verified
    await _writes(client, 5)
    verdict = await verify_chain(store.of(tenant), full=True, anchor=Anchor(0, GENESIS_HASH))
    assert verdict.verified and verdict.checked_events == 5


async def _rewrite_plain(driver: neo4j.AsyncDriver, tenant: str, from_revision: int) -> None:
    records, _, _ = await driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) RETURN e ORDER BY e.revision", tenant=tenant
    )
    prev = "0" * 64
    for record in records:
        event = record["e"]
        if event["revision"] < from_revision:
            prev = event["hash"]
            continue
        payload = event["payload_json"].replace('"project":"p"', '"project":"forged"')
        digest = payload_digest(event["payload_salt"], payload)
        fields = (event["op"], event["at_text"], digest, prev)
        forged = event_hash(tenant, event["revision"], *fields, sealed=True)  # plain: no key
        await driver.execute_query(
            "MATCH (e:Event {tenant: $tenant, revision: $revision}) "
            "SET e.payload_json = $payload, e.payload_digest = $digest, e.prev_hash = $prev, "
            "e.hash = $hash REMOVE e.hash_scheme, e.key_id",
            tenant=tenant,
            revision=event["revision"],
            payload=payload,
            digest=digest,
            prev=prev,
            hash=forged,
        )
        prev = forged
    await driver.execute_query(
        "MATCH (h:History {tenant: $tenant}) SET h.last_hash = $hash", tenant=tenant, hash=prev
    )


# --- the command line -----------------------------------------------------------------------


async def test_anchor_then_verify_from_the_command_line(
    neo4j_endpoint: Endpoint, client: Client[Any], store: Store, tenant: str, tmp_path: Path
) -> None:
    await _writes(client, 3)
    key_file = key_file_of(store, tmp_path)
    env = clean_env(
        **neo4j_endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_HISTORY_KEY_FILE=str(key_file)
    )
    anchored = run_cli("history", "anchor", env=env)
    assert anchored.returncode == 0, anchored.stderr
    anchor = json.loads(anchored.stdout)
    assert anchor["revision"] == 3 and anchor["anchor"] == f"3:{anchor['hash']}"
    verified = run_cli("history", "verify", "--anchor", anchor["anchor"], env=env)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["status"] == "verified"
    assert "checked 3 events" in verified.stderr
    other = "3:" + hashlib.sha256(b"elsewhere").hexdigest()
    mismatch = run_cli("history", "verify", "--anchor", other, env=env)
    assert_one_clear_line(mismatch, "does not verify (anchor_mismatch)")
    key_file.chmod(0o644)
    assert_one_clear_line(run_cli("history", "verify", env=env), "chmod 600")
    key_file.unlink()  # checking never makes a key
    assert_one_clear_line(run_cli("history", "verify", env=env), "no history key file")
    assert not key_file.exists()


async def test_an_ordinary_check_that_read_enough_moves_the_checkpoint(
    client: Client[Any], store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verification, "CHECKPOINT_EVERY", 3)
    await _writes(client, 2)
    assert (await verify_chain(store.of(tenant))).checked_events == 2  # too few: no checkpoint
    assert (await verify_chain(store.of(tenant))).checked_from_revision == 0
    await _writes(client, 1, start=2)
    assert (await verify_chain(store.of(tenant))).checked_events == 3  # enough: moved to 3
    after = await verify_chain(store.of(tenant))
    assert (after.checked_from_revision, after.checked_events) == (3, 0)
