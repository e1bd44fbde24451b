"""`graphmem erase`: the operator's erasure on the command line, a dry run first, then the
confirmed run; bad input is one clear line and erases nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j
from fastmcp import Client

from graphmem.store import Store
from tests.app.helpers import assert_one_clear_line, run_cli
from tests.erasure.helpers import PROJECT, cli_env, scan_tenant, write_the_probe
from tests.neo4j_endpoint import Endpoint


async def test_a_dry_run_then_a_confirmed_erasure(
    neo4j_endpoint: Endpoint,
    client: Client[Any],
    store: Store,
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    tmp_path: Path,
) -> None:
    await write_the_probe(client)
    env = cli_env(neo4j_endpoint, store, tenant, tmp_path)
    dry = run_cli("erase", "--project", PROJECT, env=env)
    assert dry.returncode == 0, dry.stderr
    listed = json.loads(dry.stdout)
    assert listed["dry_run"] and listed["total"] > 10 and "nothing erased" in dry.stderr
    assert await scan_tenant(raw_driver, tenant)

    unreasoned = run_cli("erase", "--project", PROJECT, "--confirm", listed["fingerprint"], env=env)
    assert_one_clear_line(unreasoned, "reason")
    assert_one_clear_line(
        run_cli("erase", "--project", PROJECT, "--confirm", "abc", "--reason", "r", env=env),
        "--confirm",
    )
    stale = run_cli("erase", "--project", PROJECT, "--confirm", "0" * 64, "--reason", "r", env=env)
    assert_one_clear_line(stale, "changed since the dry run")
    assert await scan_tenant(raw_driver, tenant)  # nothing erased by the refusals

    done = run_cli(
        "erase",
        "--project",
        PROJECT,
        "--confirm",
        listed["fingerprint"],
        "--reason",
        "GDPR",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    erased = json.loads(done.stdout)
    assert erased["total"] == listed["total"] and erased["remaining"] == 0
    assert await scan_tenant(raw_driver, tenant) == []
    verified = run_cli("history", "verify", env=env)
    assert json.loads(verified.stdout)["erased_payloads"] == erased["event_payloads"]
