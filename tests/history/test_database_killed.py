"""The database killed (SIGKILL) under concurrent writers, then started again, while one
graphmem process keeps serving: no acknowledged write is lost, every retry (same idempotency
key) converges on one fact, revisions stay gap-free and the chain verifies. graphmem is not
restarted: its calls report a retryable error meanwhile and recover by themselves."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import neo4j
import pytest

from graphmem.core.keys import load_or_create
from graphmem.history.verification import verify_chain
from graphmem.localdb import LocalNeo4j
from graphmem.store import Store, ping_sync
from tests.app.helpers import clean_env, post, serving_http
from tests.history.helpers import plain_session, until_answering, wait_until
from tests.neo4j_endpoint import Endpoint

pytestmark = pytest.mark.managed  # kills and restarts the session's managed Neo4j

WRITERS = 8
ACKS_EACH_SIDE = 15  # acknowledged writes per writer before the kill, and again after it
RETRYABLE = {"store_unavailable", "timed_out", "starting"}
QUERY_TIMEOUT = 5  # seconds; also how long the driver retries a write


class Writer:
    """Writes facts one after another over plain HTTP; a write that fails retryably is sent
    again with the same idempotency key until it is acknowledged."""

    def __init__(self, port: int, name: str) -> None:
        self.port, self.name = port, name
        self.acknowledged: dict[str, str] = {}  # idempotency key -> fact id
        self.retries = 0
        self.headers = plain_session(port)

    def run(self, stop: threading.Event) -> None:
        n = 0
        while not stop.is_set():
            key = f"{self.name}-{n}"
            self.acknowledged[key] = self._write_until_acknowledged(key, n)
            n += 1

    def _write_until_acknowledged(self, key: str, n: int) -> str:
        arguments = {"project": "p", "key": f"k{n % 4}", "value": n, "idempotency_key": key}
        call = {"name": "record_fact", "arguments": arguments}
        while True:
            message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
            result = post(self.port, message, **self.headers).message()["result"]
            if not result.get("isError"):
                return result["structuredContent"]["id"]
            error = json.loads(result["content"][0]["text"])
            assert error["error"] in RETRYABLE and error.get("retryable"), error
            self.retries += 1
            time.sleep(0.2)


async def test_a_killed_database_loses_no_acknowledged_write(
    neo4j_endpoint: Endpoint, store: Store, tenant: str, tmp_path: Path
) -> None:
    if neo4j_endpoint.local_settings is None:
        pytest.skip("needs the managed local Neo4j of the test session")
    # The session's own managed Neo4j (its schema applied): killed, then started again.
    local = LocalNeo4j(neo4j_endpoint.local_settings)
    key_file = tmp_path / "history.key"
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_TENANT=tenant,
        GRAPHMEM_HISTORY_KEY_FILE=str(key_file),
        GRAPHMEM_QUERY_TIMEOUT=str(QUERY_TIMEOUT),
    )
    try:
        with serving_http(env) as server, ThreadPoolExecutor(WRITERS) as pool:
            writers = [Writer(server.port, f"w{n}") for n in range(WRITERS)]
            stop = threading.Event()
            running = [pool.submit(writer.run, stop) for writer in writers]
            await asyncio.to_thread(
                wait_until, lambda: all(len(w.acknowledged) >= ACKS_EACH_SIDE for w in writers)
            )
            before = sum(len(w.acknowledged) for w in writers)
            pid = local.status().pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)  # no shutdown, mid-transaction
            # down for longer than a write's retries last: the in-flight batch fails (with
            # group commit one batch is in flight, and a quick restart would hide the kill)
            await asyncio.sleep(QUERY_TIMEOUT + 1)
            _, started = await asyncio.to_thread(local.start, ping_sync)
            assert started
            await asyncio.to_thread(
                wait_until,
                lambda: (
                    sum(len(w.acknowledged) for w in writers) >= before + WRITERS * ACKS_EACH_SIDE
                ),
            )
            assert server.process.poll() is None  # the same graphmem process throughout
            stop.set()
            for future in running:
                future.result(timeout=120)
        assert sum(w.retries for w in writers) > 0  # the kill was felt
        await _assert_nothing_lost(neo4j_endpoint, tenant, writers, key_file)
    finally:
        await asyncio.to_thread(local.start, ping_sync)  # running again for the next tests
        await until_answering(store)


async def _assert_nothing_lost(
    endpoint: Endpoint, tenant: str, writers: list[Writer], key_file: Path
) -> None:
    acknowledged = {fact for w in writers for fact in w.acknowledged.values()}
    writes = sum(len(w.acknowledged) for w in writers)
    assert len(acknowledged) == writes  # every write its own fact, retries converged
    auth = (endpoint.user, endpoint.password)
    async with neo4j.AsyncGraphDatabase.driver(endpoint.uri, auth=auth) as raw:
        facts, _, _ = await raw.execute_query(
            "MATCH (f:Fact {tenant: $tenant}) RETURN f.id AS id", tenant=tenant
        )
        events, _, _ = await raw.execute_query(
            "MATCH (e:Event {tenant: $tenant}) RETURN e.revision AS r ORDER BY r", tenant=tenant
        )
    assert {record["id"] for record in facts} == acknowledged  # none lost, none doubled
    assert [record["r"] for record in events] == list(range(1, writes + 1))
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    store.chain_key = load_or_create(key_file)
    try:
        verdict = await verify_chain(store.of(tenant), full=True)
    finally:
        await store.close()
    assert verdict.status == "verified" and verdict.complete
