"""An erasure interrupted, by SIGKILL of the graphmem process erasing or of Neo4j, leaves
whole batches erased and the rest as it was; the chain verifies; run again (a dry run, then
the confirmation), it completes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.erasure.service import BATCH
from graphmem.history.verification import verify_chain
from graphmem.localdb import LocalNeo4j
from graphmem.store import Store, ping_sync
from tests.app.helpers import GRAPHMEM, run_cli
from tests.erasure.helpers import cli_env
from tests.history.helpers import until_answering
from tests.neo4j_endpoint import Endpoint
from tests.support import call

TURNS = 5 * BATCH  # five batches and the session's


async def _archived_session(client: Client[Any]) -> str:
    start = datetime.now(UTC) - timedelta(days=1)
    session = ""
    for call_number in range(TURNS // 500):
        turns = [
            {
                "role": "user",
                "content": f"turn {call_number}-{n}",
                "ts": (start + timedelta(seconds=call_number * 500 + n)).isoformat(),
            }
            for n in range(500)
        ]
        archived = await call(
            client,
            "archive_turns",
            project="p",
            session_ref="long",
            host="h",
            source_root="/r",
            turns=turns,
        )
        session = archived["session"]["id"]
    return session


async def _erased(driver: neo4j.AsyncDriver, tenant: str) -> int:
    records, _, _ = await driver.execute_query(
        "MATCH (n:Erased) WHERE n.tenant = $tenant RETURN count(n) AS n", tenant=tenant
    )
    return int(records[0]["n"])


async def _until_erasing(driver: neo4j.AsyncDriver, tenant: str) -> int:
    deadline = time.monotonic() + 120
    while (erased := await _erased(driver, tenant)) == 0:
        assert time.monotonic() < deadline, "the erasure never committed a batch"
        await asyncio.sleep(0.005)
    return erased


def _confirmed(session: str, env: dict[str, str], selected: int) -> subprocess.Popen[str]:
    dry = run_cli("erase", "--raw-session", session, env=env)
    assert dry.returncode == 0, dry.stderr
    listed = json.loads(dry.stdout)
    assert listed["total"] == selected
    command = ["erase", "--raw-session", session, "--confirm", listed["fingerprint"]]
    return subprocess.Popen(
        [*GRAPHMEM, *command, "--reason", "a deletion request"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _run_again_to_completion(
    session: str, env: dict[str, str], store: Store, driver: neo4j.AsyncDriver, tenant: str
) -> None:
    partial = await _erased(driver, tenant)
    assert 0 < partial < TURNS + 1 and partial % BATCH == 0, partial  # whole batches only
    assert (await verify_chain(store.of(tenant), full=True)).verified
    finishing = _confirmed(session, env, TURNS + 1 - partial)
    out, err = finishing.communicate(timeout=300)
    assert finishing.returncode == 0, err
    assert json.loads(out)["total"] == TURNS + 1 - partial
    assert await _erased(driver, tenant) == TURNS + 1
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.erased_payloads == TURNS // 500


async def test_an_erasure_killed_midway_completes_when_run_again(
    neo4j_endpoint: Endpoint,
    client: Client[Any],
    store: Store,
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    tmp_path: Path,
) -> None:
    session = await _archived_session(client)
    env = cli_env(neo4j_endpoint, store, tenant, tmp_path, GRAPHMEM_QUERY_TIMEOUT="5")
    erasing = _confirmed(session, env, TURNS + 1)
    await _until_erasing(raw_driver, tenant)
    erasing.send_signal(signal.SIGKILL)  # no shutdown, mid-batch
    erasing.wait(timeout=30)
    await _run_again_to_completion(session, env, store, raw_driver, tenant)


@pytest.mark.managed  # kills and restarts the session's managed Neo4j
async def test_an_erasure_whose_database_died_completes_when_run_again(
    neo4j_endpoint: Endpoint,
    client: Client[Any],
    store: Store,
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    tmp_path: Path,
) -> None:
    if neo4j_endpoint.local_settings is None:
        pytest.skip("needs the managed local Neo4j of the test session")
    local = LocalNeo4j(neo4j_endpoint.local_settings)
    session = await _archived_session(client)
    env = cli_env(neo4j_endpoint, store, tenant, tmp_path, GRAPHMEM_QUERY_TIMEOUT="5")
    erasing = _confirmed(session, env, TURNS + 1)
    try:
        await _until_erasing(raw_driver, tenant)
        pid = local.status().pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        _, err = erasing.communicate(timeout=120)
        assert erasing.returncode == 1 and "Traceback" not in err, err
    finally:
        await asyncio.to_thread(local.start, ping_sync)
        await until_answering(store)
    async with neo4j.AsyncGraphDatabase.driver(
        neo4j_endpoint.uri, auth=(neo4j_endpoint.user, neo4j_endpoint.password)
    ) as driver:
        await _run_again_to_completion(session, env, store, driver, tenant)
