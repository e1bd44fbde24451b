"""The graphmem process killed (SIGKILL) while 32 writers keep its group commit full: no
caller heard of a write that did not commit, every acknowledged write is there, and no write
is there by half (a fact without its event, an event without its fact)."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import neo4j

from graphmem.history.verification import verify_chain
from graphmem.store import Store
from tests.app.helpers import clean_env, post, serving_http
from tests.history.helpers import key_file_of, plain_session, wait_until
from tests.neo4j_endpoint import Endpoint

WRITERS = 32
ACKS_BEFORE_KILL = 150


class Writer:
    """record_fact calls one after another until one is not answered."""

    def __init__(self, port: int, name: str) -> None:
        self.port, self.name = port, name
        self.acknowledged: dict[str, int] = {}  # fact id -> revision
        self.unanswered = 0
        self.headers = plain_session(port)

    def run(self) -> None:
        for n in range(10_000):
            arguments = {"project": "p", "key": f"{self.name}.k{n % 3}", "value": n}
            call = {"name": "record_fact", "arguments": arguments}
            message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
            try:
                answer = post(self.port, message, **self.headers)
                result = answer.message()["result"]
            except Exception:  # the process is gone: the call was never acknowledged
                self.unanswered += 1
                return
            if result.get("isError"):
                return
            self.acknowledged[result["structuredContent"]["id"]] = result["structuredContent"][
                "revision"
            ]


async def test_a_killed_process_acknowledged_only_what_committed(
    neo4j_endpoint: Endpoint,
    store: Store,
    tenant: str,
    tmp_path: Path,
    raw_driver: neo4j.AsyncDriver,
) -> None:
    key_file = key_file_of(store, tmp_path)
    env = clean_env(
        **neo4j_endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_HISTORY_KEY_FILE=str(key_file)
    )
    with serving_http(env) as server, ThreadPoolExecutor(WRITERS) as pool:
        writers = [Writer(server.port, f"w{n}") for n in range(WRITERS)]
        running = [pool.submit(writer.run) for writer in writers]
        await asyncio.to_thread(wait_until, lambda: _acks(writers) >= ACKS_BEFORE_KILL)
        os.kill(server.process.pid, signal.SIGKILL)  # writes queued and one batch committing
        for future in running:
            future.result(timeout=120)
    assert sum(w.unanswered for w in writers) >= WRITERS // 2  # most were waiting in the queue
    await _assert_whole(store, raw_driver, tenant, writers)


def _acks(writers: list[Writer]) -> int:
    return sum(len(w.acknowledged) for w in writers)


async def _assert_whole(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, writers: list[Writer]
) -> None:
    facts, _, _ = await raw_driver.execute_query(
        "MATCH (f:Fact {tenant: $tenant}) RETURN f.id AS id", tenant=tenant
    )
    events, _, _ = await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) RETURN e.aggregate_id AS id, e.revision AS revision "
        "ORDER BY revision",
        tenant=tenant,
    )
    stored = {record["id"] for record in facts}
    recorded = {record["id"]: record["revision"] for record in events}
    acknowledged = {fact: revision for w in writers for fact, revision in w.acknowledged.items()}
    assert acknowledged.items() <= recorded.items()  # each acknowledged write, as answered
    assert stored == set(recorded)  # no fact without its event, no event without its fact
    assert [record["revision"] for record in events] == list(range(1, len(events) + 1))
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.complete
