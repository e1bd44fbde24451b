"""Several graphmem processes on one database, 32 writers spread over them: every invariant of
the write path holds across processes and their group commits (one active fact per key,
gap-free revisions, a chain that verifies, idempotent retries that converge). The writers
alternate between two tenants, so each tenant has writers in every process."""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import neo4j

from graphmem.app.tokens import issue_token
from graphmem.history.verification import verify_chain
from graphmem.store import Store
from tests.app.helpers import clean_env, post, serving_http
from tests.history.helpers import key_file_of, plain_session
from tests.neo4j_endpoint import Endpoint

PROCESSES, WRITERS, WRITES, KEYS = 3, 32, 60, 6
RETRY_EVERY = 10  # every tenth write is sent twice, as a client retrying after a lost answer


def _writer(port: int, token: str, name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """WRITES record_fact calls on shared keys in one MCP session (plain HTTP: the client
    library would be the bottleneck here, not graphmem); the (first, retry) answers of the
    retried ones."""
    bearer = {"authorization": f"Bearer {token}"}
    headers = plain_session(port, **bearer)
    retried = []
    for n in range(WRITES):
        arguments = {
            "project": "p",
            "key": f"k{n % KEYS}",
            "value": {"by": name, "n": n},
            "idempotency_key": f"{name}-{n}",
        }
        first = _record_fact(port, headers, arguments)
        if n % RETRY_EVERY == 0:
            retried.append((first, _record_fact(port, headers, arguments)))
    return retried


def _record_fact(port: int, headers: dict[str, str], arguments: dict[str, Any]) -> dict[str, Any]:
    call = {"name": "record_fact", "arguments": arguments}
    answer = post(
        port, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}, **headers
    )
    result = answer.message()["result"]
    assert answer.status == 200 and not result.get("isError"), result
    return result["structuredContent"]


async def test_three_processes_with_32_writers_keep_every_invariant(
    neo4j_endpoint: Endpoint,
    store: Store,
    tenant: str,
    tmp_path: Path,
    raw_driver: neo4j.AsyncDriver,
) -> None:
    key_file = key_file_of(store, tmp_path)  # the one key every process shares
    tenants = [tenant, f"{tenant}-b"]
    tokens_file = tmp_path / "tokens.json"
    tokens = [issue_token(tokens_file, t, ["read", "write"])[0] for t in tenants]
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_HISTORY_KEY_FILE=str(key_file),
        GRAPHMEM_TOKENS_FILE=str(tokens_file),
    )
    try:
        with ExitStack() as servers, ThreadPoolExecutor(WRITERS) as writers:
            ports = [servers.enter_context(serving_http(env)).port for _ in range(PROCESSES)]
            loop = asyncio.get_running_loop()
            answers = await asyncio.gather(
                *(
                    loop.run_in_executor(
                        writers, _writer, ports[w % PROCESSES], tokens[w % 2], f"w{w}"
                    )
                    for w in range(WRITERS)
                )
            )
        retried = [pair for writer in answers for pair in writer]
        assert len(retried) == WRITERS * WRITES // RETRY_EVERY
        for first, again in retried:  # a retry converges on the first write's answer
            assert again["id"] == first["id"] and again["revision"] == first["revision"]
        for each in tenants:
            await _assert_invariants(store, raw_driver, each, WRITERS * WRITES // 2)
    finally:
        await store.purge_tenant(tenants[1])


async def _assert_invariants(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, writes: int
) -> None:
    events, _, _ = await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) RETURN e.revision AS r ORDER BY r", tenant=tenant
    )
    active, _, _ = await raw_driver.execute_query(
        "MATCH (f:Fact {tenant: $tenant, status: 'active'}) RETURN f.key AS key", tenant=tenant
    )
    assert [record["r"] for record in events] == list(range(1, writes + 1))  # gap-free, once each
    assert Counter(record["key"] for record in active) == {f"k{n}": 1 for n in range(KEYS)}
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.status == "verified" and verdict.complete and verdict.checked_events == writes
