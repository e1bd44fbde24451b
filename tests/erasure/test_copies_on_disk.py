"""Copies an erasure cannot reach through the graph, on the managed Neo4j's disk: the data
folder is searched for an erased canary right after the erasure and after the clean-up that
follows it (the transaction log moved on and pruned at the next checkpoint). What survives is
exactly what docs/operations.md ("Copies an erasure cannot reach") names."""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.localdb.log_push import byte_size, log_pusher, running_rotation
from graphmem.store import Store
from tests.erasure.helpers import erase
from tests.neo4j_endpoint import Endpoint
from tests.support import WholeRecordClient, call

PRUNED_WITHIN = 90.0  # seconds: the tests' checkpoint interval (10 s) and a margin


def holding(folder: Path, canary: bytes) -> set[str]:
    """The files under ``folder`` whose bytes hold ``canary``, relative to it."""
    found = set()
    for path in folder.rglob("*"):
        try:
            if path.is_file() and canary in path.read_bytes():
                found.add(path.relative_to(folder).as_posix())
        except OSError:  # a file Neo4j removed meanwhile
            continue
    return found


def place(path: str) -> str:
    """What a file of Neo4j's data folder is, for the assertions and their messages."""
    if "/transactions/" in f"/{path}":
        return "transaction log"
    if "/schema/index/fulltext" in f"/{path}":
        return "full-text index segment"
    if "/schema/index/" in f"/{path}":
        return "range index"
    if "propertystore" in path:
        return "property store"
    return path


async def _write_and_erase(store: Store, settings: Settings, canary: str) -> dict[str, object]:
    managed = settings.model_copy(update={"neo4j_uri": None})  # the push after an erasure
    async with WholeRecordClient(create_server(store, managed)) as client:
        await call(client, "save_memory", project="gone", title="secret", content=canary)
        turn = {"role": "user", "content": canary, "ts": datetime.now(UTC).isoformat()}
        await call(
            client,
            "archive_turns",
            project="gone",
            session_ref="s",
            host="h",
            source_root="/r",
            turns=[turn],
        )
        assert (await call(client, "search", query=canary))["count"] == 1  # indexed
        return await erase(client, project="gone")


@pytest.mark.managed  # greps the session's managed Neo4j's data folder
async def test_an_erased_canary_leaves_the_transaction_log(
    neo4j_endpoint: Endpoint, store: Store, settings: Settings
) -> None:
    local = neo4j_endpoint.local_settings
    if local is None:
        pytest.skip("needs the managed local Neo4j of the test session (its data folder)")
    canary = "erasurecanary" + uuid.uuid4().hex * 3  # one long token: a string record's
    folder = local.data_dir  # the database, its logs, its configuration
    done = await _write_and_erase(store, settings, canary)
    assert done["counts"] == {"Memory": 1, "Session": 1, "Turn": 1}
    right_after = survivors = holding(folder, canary.encode())
    began = time.monotonic()
    while time.monotonic() - began < PRUNED_WITHIN:
        survivors = holding(folder, canary.encode())
        if "transaction log" not in {place(path) for path in survivors}:
            break
        await asyncio.sleep(2.0)
    print(f"after the erasure: {sorted(right_after)}; after the clean-up: {sorted(survivors)}")
    assert "transaction log" not in {place(path) for path in survivors}, survivors
    # what may outlive the clean-up, as the docs say: index pages and segments until Neo4j
    # rewrites or merges them, string records until they are reused; nothing else
    assert {place(path) for path in survivors} <= {
        "full-text index segment",
        "range index",
        "property store",
    }, survivors


async def test_a_push_that_fails_leaves_the_erasure_standing(
    neo4j_endpoint: Endpoint, settings: Settings, tmp_path: Path
) -> None:
    managed = settings.model_copy(update={"neo4j_uri": None, "data_dir": tmp_path})
    push = log_pusher(managed)
    assert push is not None and log_pusher(settings) is None  # only the managed Neo4j's
    closed = await Store.connect(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    await closed.close()
    assert await push(closed.of("test-closed")) is False  # logged, never raised


def test_the_filler_covers_the_rotation_the_running_neo4j_was_started_with(tmp_path: Path) -> None:
    conf = tmp_path / "neo4j.conf"
    assert running_rotation(conf) is None
    conf.write_text("server.https.enabled=false\ndb.tx_log.rotation.size=16m\n")
    assert running_rotation(conf) == 16 << 20
    assert byte_size("256k") == 256 << 10
    with pytest.raises(ValueError):
        byte_size("4 MiB")
